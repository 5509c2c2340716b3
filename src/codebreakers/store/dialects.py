"""Everything that differs between SQLite and PostgreSQL, so the queries can be written once.

SQLite: one file in WAL mode. `synchronous=NORMAL` (the default here) makes a committed
transaction survive a crash or SIGKILL of the process, because the WAL frames are already in the
OS; only a power cut or kernel crash can lose the last commits. `synchronous=FULL` (opt in with
`?synchronous=full` on the URL) also fsyncs the WAL on every commit and survives power loss, at
the cost of one fsync per action. Writers start with BEGIN IMMEDIATE so a read-then-write
transaction never has to upgrade its lock (which in WAL mode fails instead of waiting), and the
busy timeout makes a second writer, even in another process, wait its turn.

PostgreSQL: the asyncpg driver; stale pooled connections are detected with a pre-ping.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

# Set on the engine the store writes through; the SQLite BEGIN hook reads it.
_WRITE_OPTION = "codebreakers_write"

BUSY_TIMEOUT_MS = 10_000
SYNCHRONOUS_MODES = ("normal", "full")


def async_url(url: str) -> URL:
    """Map the URLs users write (sqlite:///, postgresql://, postgres://) to async drivers."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError(
                "an in-memory SQLite database can't be shared by the store's connections; "
                "give a file path (sqlite:///path/to/codebreakers.db)"
            )
        return parsed.set(drivername="sqlite+aiosqlite")
    if backend in ("postgresql", "postgres"):
        return parsed.set(drivername="postgresql+asyncpg")
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///path or postgresql://...")


def single_writer(url: URL) -> bool:
    """Whether the database admits one writing transaction at a time (SQLite does)."""
    return url.get_backend_name() == "sqlite"


def create_engine(url: URL, *, migrating: bool = False) -> AsyncEngine:
    """An engine with the dialect's durability and locking settings applied.

    `migrating`: for running migrations (see `migrate.upgrade`); SQLite then leaves foreign keys
    unenforced, which can only be chosen outside a transaction, hence a separate engine.
    """
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, foreign_keys=not migrating)
    return create_async_engine(url, pool_pre_ping=True)


def for_writing(engine: AsyncEngine) -> AsyncEngine:
    """The same engine and pool, marked so that SQLite begins with BEGIN IMMEDIATE."""
    return engine.execution_options(**{_WRITE_OPTION: True})


def _sqlite_engine(url: URL, *, foreign_keys: bool) -> AsyncEngine:
    synchronous = url.query.get("synchronous", "normal")
    if not isinstance(synchronous, str) or synchronous.lower() not in SYNCHRONOUS_MODES:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
    url = url.difference_update_query(["synchronous"])
    assert url.database is not None
    Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url)

    @event.listens_for(engine.sync_engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            "journal_mode=WAL",
            f"synchronous={synchronous.upper()}",
            f"busy_timeout={BUSY_TIMEOUT_MS}",
            f"foreign_keys={'ON' if foreign_keys else 'OFF'}",
        ):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Any) -> None:
        write = connection.get_execution_options().get(_WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine
