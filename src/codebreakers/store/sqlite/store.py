"""The SQLite adapter: the store's ports on one SQLite file, through the stdlib driver.

Each port method is one transaction running one function of `queries.py` on a sqlite3
connection. Reads go to a small pool of threads, each with its own connection, and run
alongside the writer (WAL lets readers proceed while one writer commits): a whole read
transaction is one hop to a thread. Writes go to the group committer (`commit.py`), so this
process's writers queue there instead of in SQLite's busy handler, and those that queue up
meanwhile commit together. Migrations run through SQLAlchemy and Alembic first
(`engine.py`), on a connection of their own.

Checkpoints (copying the WAL back into the database file) fsync, so the writer connection
never runs them (`wal_autocheckpoint=0`): after a commit, at most every CHECKPOINT_EVERY_S, one
runs in a reader thread in SQLite's passive mode, which never waits on a reader or writer.

Busy handling is the adapter's: a write waits for another process's write lock with backoff
(`commit.py`), a read in SQLite's busy handler, each for up to BUSY_TIMEOUT_MS; then the call
fails with `StoreBusy`, nothing having been done.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from types import ModuleType
from typing import Any, ClassVar, TypeVar

from codebreakers.store import migrate
from codebreakers.store.base import StoreBusy
from codebreakers.store.delegate import QueryPorts
from codebreakers.store.sqlite import challenge_queries, profile_queries, queries
from codebreakers.store.sqlite.commit import GroupCommitter
from codebreakers.store.sqlite.connect import BUSY_TIMEOUT_MS, SqliteFile, connect
from codebreakers.store.sqlite.engine import SqliteRunner

T = TypeVar("T")
log = logging.getLogger(__name__)

READ_THREADS = 4
CHECKPOINT_EVERY_S = 1.0


class SqliteStore(QueryPorts):
    """`Store` on one SQLite file: the ports' queries (`delegate.py`) run as `read` and `write`
    run them."""

    queries: ClassVar[ModuleType] = queries
    profile_queries: ClassVar[ModuleType] = profile_queries
    challenge_queries: ClassVar[ModuleType] = challenge_queries

    def __init__(self, file: SqliteFile, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        self.file = file
        self._busy_timeout_ms = busy_timeout_ms
        self.checkpoints = 0  # passes done: a count for tests and curious operators
        self._committer: GroupCommitter | None = None
        self._readers: ThreadPoolExecutor | None = None
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._checkpoint: Future[None] | None = None
        self._last_checkpoint = 0.0

    async def open(self) -> None:
        """Create the file if need be, migrate it, then connect; a failure leaves it closed."""
        if self._committer is not None:
            raise RuntimeError("the store is already open")
        await SqliteRunner(self.file).schema_change(migrate.upgrade)
        writer = connect(self.file, busy_timeout_ms=0)
        writer.execute("PRAGMA wal_autocheckpoint=0")
        self._connections.append(writer)
        self._readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="store-read")
        self._last_checkpoint = time.monotonic()
        self._committer = GroupCommitter(
            writer,
            in_thread=self.file.synchronous == "FULL",  # an fsync per COMMIT: never on the loop
            busy_timeout_s=self._busy_timeout_ms / 1000,
            after_commit=self._maybe_checkpoint,
        )

    async def close(self) -> None:
        committer, readers = self._committer, self._readers
        self._committer = self._readers = None
        if committer is not None:
            await committer.stop()
        if readers is not None:
            await asyncio.to_thread(readers.shutdown)  # a checkpoint under way finishes first
        for db in self._connections:
            db.close()
        self._connections.clear()
        self._local = threading.local()

    # How work runs

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        """`work(connection, *args)` in a read transaction (one snapshot), in a reader thread."""
        if self._readers is None:
            raise RuntimeError("the store is not open")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._readers, self._read, work, args)

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        """`work(connection, *args)` in a write transaction, maybe shared with other writes."""
        if self._committer is None:
            raise RuntimeError("the store is not open")
        result: T = await self._committer.submit(work, args)
        return result

    def _read(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        db = self._reader()
        try:
            db.execute("BEGIN")
            try:
                return work(db, *args)
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode == sqlite3.SQLITE_BUSY:
                raise StoreBusy(f"SQLite stayed locked for {self._busy_timeout_ms} ms") from error
            raise

    def _reader(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = connect(self.file, busy_timeout_ms=self._busy_timeout_ms)
            self._connections.append(db)
        return db

    def _maybe_checkpoint(self) -> None:
        now = time.monotonic()
        if self._readers is None or now - self._last_checkpoint < CHECKPOINT_EVERY_S:
            return
        if self._checkpoint is not None and not self._checkpoint.done():
            return
        self._last_checkpoint = now
        self._checkpoint = self._readers.submit(self._checkpoint_now)

    def _checkpoint_now(self) -> None:
        try:
            self._reader().execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except Exception:
            log.warning("WAL checkpoint failed; trying again later", exc_info=True)
