"""How the store runs its queries on SQLite: the stdlib driver, in worker threads.

Each unit of work (one `queries` function, one transaction) goes to a thread in one hop. The
async driver, aiosqlite, hops to its thread for every cursor, execute, fetch and close, a dozen
times per append; measured on this machine that cost 3x the CPU per append (see
docs/storage.md). Writes go to a single thread, so this process's writers queue there instead of
in SQLite's busy handler; reads go to a small pool and run alongside (WAL lets readers proceed
while one writer commits).

Durability: WAL mode with `synchronous=NORMAL` (the default here) makes a committed transaction
survive a crash or SIGKILL of the process, because the WAL frames are already in the OS; only a
power cut or kernel crash can lose the last commits. `synchronous=FULL` (opt in with
`?synchronous=full` on the URL) also fsyncs the WAL at every commit and survives power loss, at
the cost of one fsync per action. Writers start with BEGIN IMMEDIATE, so a read-then-write
transaction never has to upgrade its lock (which in WAL mode fails instead of waiting), and the
busy timeout makes a writer in another process wait its turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
SYNCHRONOUS_MODES = ("normal", "full")
READ_THREADS = 4
_WRITE = "codebreakers_write"  # execution option read by the BEGIN hook


class SqliteRunner:
    """Runs query functions in transactions on one SQLite file."""

    def __init__(self, url: URL) -> None:
        synchronous = url.query.get("synchronous", "normal")
        if not isinstance(synchronous, str) or synchronous.lower() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
        self._synchronous = synchronous.upper()
        self._url = url.difference_update_query(["synchronous"]).set(drivername="sqlite+pysqlite")
        self._engine: Engine | None = None
        self._writer: ThreadPoolExecutor | None = None
        self._readers: ThreadPoolExecutor | None = None

    async def open(self) -> None:
        assert self._url.database is not None
        Path(self._url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        self._engine = self._create_engine(foreign_keys=True)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="store-write")
        self._readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="store-read")

    async def close(self) -> None:
        engine, writer, readers = self._engine, self._writer, self._readers
        self._engine = self._writer = self._readers = None
        for pool in (writer, readers):
            if pool is not None:
                await asyncio.to_thread(pool.shutdown)
        if engine is not None:
            engine.dispose()

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        return await self._run(self._pool(self._readers), _read, self._live_engine(), work, args)

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        return await self._run(self._pool(self._writer), _write, self._live_engine(), work, args)

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        """A write transaction fit for migrations (foreign keys checked once, at the end).

        A batch migration rebuilds a table by copying, dropping and renaming it; dropping `rooms`
        or `games` would fail on the rows that point at them. Enforcement can only be switched
        off outside a transaction, hence a short-lived engine of its own; `foreign_key_check`
        then runs before COMMIT, and a dangling row rolls everything back.
        """
        engine = self._create_engine(foreign_keys=False)
        try:
            return await self._run(self._pool(self._writer), _checked_write, engine, work, args)
        finally:
            engine.dispose()

    async def _run(self, pool: ThreadPoolExecutor, how: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(pool, partial(how, *args))

    def _live_engine(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine

    @staticmethod
    def _pool(pool: ThreadPoolExecutor | None) -> ThreadPoolExecutor:
        if pool is None:
            raise RuntimeError("the store is not open")
        return pool

    def _create_engine(self, *, foreign_keys: bool) -> Engine:
        engine = create_engine(self._url, connect_args={"check_same_thread": False})
        pragmas = (
            "journal_mode=WAL",
            f"synchronous={self._synchronous}",
            f"busy_timeout={BUSY_TIMEOUT_MS}",
            f"foreign_keys={'ON' if foreign_keys else 'OFF'}",
        )

        @event.listens_for(engine, "connect")
        def _configure(dbapi_connection: Any, _record: Any) -> None:
            # Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.
            dbapi_connection.isolation_level = None
            for pragma in pragmas:
                dbapi_connection.execute(f"PRAGMA {pragma}")

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            write = conn.get_execution_options().get(_WRITE, False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine


def _read(engine: Engine, work: Callable[..., T], args: tuple[Any, ...]) -> T:
    with engine.connect() as conn:
        return work(conn, *args)


def _write(engine: Engine, work: Callable[..., T], args: tuple[Any, ...]) -> T:
    with engine.execution_options(**{_WRITE: True}).begin() as conn:
        return work(conn, *args)


def _checked_write(engine: Engine, work: Callable[..., T], args: tuple[Any, ...]) -> T:
    with engine.execution_options(**{_WRITE: True}).begin() as conn:
        result = work(conn, *args)
        broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"schema change left rows pointing at nothing: {broken[:5]}")
        return result
