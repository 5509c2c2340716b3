"""How the store runs its queries on SQLite: the stdlib driver, in worker threads.

Each unit of work (one `queries` function, one transaction) goes to a thread in one hop. The
async driver, aiosqlite, hops to its thread for every cursor, execute, fetch and close, a dozen
times per append; measured on this machine that cost 3x the CPU per append (see
docs/storage.md). Writes go to a single thread, so this process's writers queue there instead of
in SQLite's busy handler; reads go to a small pool and run alongside (WAL lets readers proceed
while one writer commits).

`SqliteRunner` hands work a SQLAlchemy Connection (migrations, tools, tests). The store itself
uses `SqliteStoreRunner`, which runs the `queries` functions straight on the sqlite3 driver
(`direct.py`) and commits the writes that queued up meanwhile together (group commit): one
BEGIN IMMEDIATE ... COMMIT, each write inside a SAVEPOINT of its own, so a write that fails
rolls back only itself. Every caller gets its own result or exception, and only once the COMMIT
has succeeded; if the COMMIT fails, every write of the batch fails with it.

Durability: WAL mode with `synchronous=NORMAL` (the default here) makes a committed transaction
survive a crash or SIGKILL of the process, because the WAL frames are already in the OS; only a
power cut or kernel crash can lose the last commits. `synchronous=FULL` (opt in with
`?synchronous=full` on the URL) also fsyncs the WAL at every commit and survives power loss, at
the cost of one fsync per commit (shared by a batch). Writers start with BEGIN IMMEDIATE, so a
read-then-write transaction never has to upgrade its lock (which in WAL mode fails instead of
waiting), and the busy timeout makes a writer in another process wait its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL

from codebreakers.store.direct import DirectDb

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000
WAL = "journal_mode=WAL"
SYNCHRONOUS_MODES = ("normal", "full")
READ_THREADS = 4
# Writes per group commit: bounds how long the first of a batch waits for its COMMIT.
MAX_BATCH = 100
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
            f"busy_timeout={BUSY_TIMEOUT_MS}",
            WAL,
            f"synchronous={self._synchronous}",
            f"foreign_keys={'ON' if foreign_keys else 'OFF'}",
        )

        @event.listens_for(engine, "connect")
        def _configure(dbapi_connection: Any, _record: Any) -> None:
            # Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.
            dbapi_connection.isolation_level = None
            for pragma in pragmas:
                if pragma == WAL:
                    _switch_to_wal(dbapi_connection)
                else:
                    dbapi_connection.execute(f"PRAGMA {pragma}")

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            write = conn.get_execution_options().get(_WRITE, False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine


class SqliteStoreRunner(SqliteRunner):
    """Runs `queries` functions on a `DirectDb`: reads in the pool, writes group-committed.

    Migrations (`schema_change`) still get a SQLAlchemy Connection.
    """

    def __init__(self, url: URL) -> None:
        super().__init__(url)
        self._committer: _GroupCommitter | None = None
        self._held: list[Connection] = []  # the threads' connections, from the engine's pool
        self._local = threading.local()

    async def open(self) -> None:
        await super().open()
        self._committer = _GroupCommitter(self._checkout)

    async def close(self) -> None:
        committer, readers, self._committer = self._committer, self._readers, None
        if committer is not None:
            await asyncio.to_thread(committer.stop)
        if readers is not None:
            await asyncio.to_thread(readers.shutdown)
        for held in self._held:
            held.close()
        self._held.clear()
        await super().close()

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        return await self._run(self._pool(self._readers), self._direct_read, work, args)

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        if self._committer is None:
            raise RuntimeError("the store is not open")
        return await self._committer.submit(work, args)

    def _direct_read(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        db: DirectDb | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._checkout()
        db.run("BEGIN")  # one snapshot for the whole read
        try:
            return work(db, *args)
        finally:
            if db.raw.in_transaction:
                db.run("ROLLBACK")

    def _checkout(self) -> DirectDb:
        """A connection of the engine's pool (configured by its connect hook), kept till close.

        Taken through a SQLAlchemy Connection, which is never used otherwise, so that a failure
        to connect raises SQLAlchemy's error as every other failure does.
        """
        held = self._live_engine().connect()
        self._held.append(held)
        raw = held.connection.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        return DirectDb(raw)


@dataclass(frozen=True, slots=True)
class _Write:
    work: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


_Outcome = tuple[bool, Any] | None  # (True, result) or (False, exception); None: not run


class _GroupCommitter:
    """The write thread: takes every write queued, runs them in one transaction, then answers."""

    def __init__(self, connect: Callable[[], DirectDb]) -> None:
        self._connect = connect
        self._db: DirectDb | None = None  # connected by the first batch, in this thread
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        # A daemon, so a store left open can't hold the interpreter at exit (queued writes were
        # not acknowledged, so nothing promised is lost).
        self._thread = threading.Thread(target=self._serve, name="store-write", daemon=True)
        self._thread.start()

    def submit(self, work: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Write(work, args, loop, future))
        return future

    def stop(self) -> None:
        """Finish the writes queued so far and end the thread (blocks: call it in a thread)."""
        self._queue.put(None)
        self._thread.join()

    def _serve(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.append(more)
            _answer(batch, self._commit(batch))

    def _commit(self, batch: list[_Write]) -> list[_Outcome]:
        """Every write's outcome, known once COMMIT succeeded; if it failed, its error for all."""
        try:
            db = self._db = self._db or self._connect()
            db.run("BEGIN IMMEDIATE")
            try:
                outcomes = [self._one(db, write, savepoint=len(batch) > 1) for write in batch]
                db.run("COMMIT")
            except BaseException:
                if db.raw.in_transaction:
                    db.run("ROLLBACK")
                raise
        except BaseException as error:
            return [(False, error)] * len(batch)
        return outcomes

    def _one(self, db: DirectDb, write: _Write, *, savepoint: bool) -> _Outcome:
        if write.future.cancelled():  # its caller gave up before it started
            return None
        if not savepoint:  # alone in its transaction: its error fails the transaction
            return (True, write.work(db, *write.args))
        db.run("SAVEPOINT write")
        try:
            result = write.work(db, *write.args)
        except Exception as error:
            if not db.raw.in_transaction:  # SQLite rolled everything back (disk full, I/O error)
                raise
            db.run("ROLLBACK TO write")
            db.run("RELEASE write")
            return (False, error)
        db.run("RELEASE write")
        return (True, result)


def _answer(batch: list[_Write], outcomes: list[_Outcome]) -> None:
    """Hand each outcome to its caller's loop, one wake-up per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
    for write, outcome in zip(batch, outcomes, strict=True):
        if outcome is not None:
            by_loop.setdefault(write.loop, []).append((write.future, *outcome))
    for loop, answers in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            loop.call_soon_threadsafe(_settle, answers)


def _settle(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in answers:
        if future.done():  # cancelled meanwhile
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


def _switch_to_wal(dbapi_connection: Any) -> None:
    """`PRAGMA journal_mode=WAL`, waiting its turn: SQLite answers "database is locked" at once,
    without calling the busy handler, while another connection to a new file is switching or
    migrating it (three stores opening one new file at once failed 4 times in 60)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            dbapi_connection.execute(f"PRAGMA {WAL}")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


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
