"""Group commit for the SQLite adapter: the writes that queue up meanwhile commit together.

One task on the event loop takes every write queued (up to MAX_BATCH) and runs them in one
`BEGIN IMMEDIATE` ... `COMMIT`, in the order they were queued. Where the batch runs is the one
choice: with `synchronous=NORMAL` a COMMIT only hands the WAL frames to the operating system
(~0.15 ms a batch), so it runs on the event loop itself, which saves the GIL hand-offs and the
thread wake-up a write thread costs; with `synchronous=FULL` every COMMIT fsyncs, so the batch
runs in one thread of its own (writes queue meanwhile, and the next batch is bigger).

- The writes run one after the other, with nothing between them; only when one raises is that
  transaction rolled back and the batch run again with each write inside a SAVEPOINT of its
  own, so the failing write undoes only itself (a savepoint costs two statements a write, and
  writes rarely raise).
- Every caller gets its own result or exception, and only once the COMMIT has succeeded; if the
  COMMIT fails (or SQLite rolls the whole transaction back: disk full, I/O error), every write
  of the batch fails with that error and none of them is stored.
- A write whose caller gave up (cancelled) before its batch started is skipped; one that was
  running completes.
- Busy: the write connection never waits inside SQLite (busy_timeout=0), so the loop never
  blocks on another process's lock. When BEGIN IMMEDIATE finds the lock taken, the committer
  sleeps (1 ms, doubling to 50 ms) and tries again, until `busy_timeout_s` has passed; then
  every write of the batch fails with `StoreBusy`, nothing having run.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from codebreakers.store.base import StoreBusy

T = TypeVar("T")

# Writes per group commit: bounds how long the first of a batch waits for its COMMIT.
MAX_BATCH = 100
FIRST_BACKOFF_S = 0.001
MAX_BACKOFF_S = 0.05

Work = Callable[..., Any]  # work(connection, *args), inside the batch's transaction


@dataclass(frozen=True, slots=True)
class _Write:
    work: Work
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


_Outcome = tuple[bool, Any] | None  # (True, result) or (False, exception); None: not run


class GroupCommitter:
    """Commits the writes handed to `submit` in batches, on `db` (opened with
    `isolation_level=None` and `busy_timeout=0`), on the loop or in a thread of its own."""

    def __init__(
        self,
        db: sqlite3.Connection,
        *,
        in_thread: bool,
        busy_timeout_s: float,
        after_commit: Callable[[], None] = lambda: None,
    ) -> None:
        self.db = db
        self.max_batch = MAX_BATCH
        self._busy_timeout_s = busy_timeout_s
        self._after_commit = after_commit
        self._thread = (
            ThreadPoolExecutor(1, thread_name_prefix="store-write") if in_thread else None
        )
        self._pending: list[_Write] = []
        self._wake = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def submit(self, work: Work, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self._stopping:
            raise RuntimeError("the store is not open")
        loop = asyncio.get_running_loop()
        if self._task is None:
            self._task = loop.create_task(self._serve(), name="store-commit")
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append(_Write(work, args, future))
        self._wake.set()
        return future

    async def stop(self) -> None:
        """Commit what is queued, then end (later writes are refused)."""
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            await self._task
        if self._thread is not None:
            self._thread.shutdown()

    async def _serve(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[: self.max_batch]
                del self._pending[: self.max_batch]
                try:
                    outcomes = await self._commit(batch)
                except Exception as error:  # a bug here must not leave callers waiting
                    outcomes = [(False, error)] * len(batch)
                _settle(batch, outcomes)
                self._after_commit()
            if self._stopping:
                return

    async def _commit(self, batch: list[_Write]) -> list[_Outcome]:
        """The batch's outcomes, trying again with backoff while another process holds the
        write lock."""
        deadline = time.monotonic() + self._busy_timeout_s
        backoff = FIRST_BACKOFF_S
        while True:
            if self._thread is None:
                outcomes = commit(self.db, batch)
            else:
                loop = asyncio.get_running_loop()
                outcomes = await loop.run_in_executor(self._thread, commit, self.db, batch)
            if outcomes is not None:
                return outcomes
            if time.monotonic() + backoff > deadline:
                busy = StoreBusy(
                    f"another connection held the SQLite write lock for {self._busy_timeout_s} s"
                )
                return [(False, busy)] * len(batch)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)


def commit(db: sqlite3.Connection, batch: list[_Write]) -> list[_Outcome] | None:
    """Run the batch in one transaction and COMMIT: every write's outcome, known once COMMIT
    succeeded; if anything failed the transaction, its error for all. None when another
    connection holds the write lock (nothing was run)."""
    if len(batch) == 1:
        return _transaction(db, batch, _alone)
    try:
        return _transaction(db, batch, _unguarded)
    except _WriteRaised:
        return _transaction(db, batch, _in_savepoint)


class _WriteRaised(Exception):
    """A write of a batch run without savepoints raised: the batch must run again with them."""


def _transaction(
    db: sqlite3.Connection,
    batch: list[_Write],
    run: Callable[[sqlite3.Connection, _Write], _Outcome],
) -> list[_Outcome] | None:
    """`run` each write in one transaction (see `commit`); `_WriteRaised` passes through."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        if error.sqlite_errorcode == sqlite3.SQLITE_BUSY:
            return None
        return [(False, error)] * len(batch)
    except Exception as error:
        return [(False, error)] * len(batch)
    try:
        try:
            outcomes = [run(db, write) for write in batch]
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except _WriteRaised:
        raise
    except Exception as error:
        return [(False, error)] * len(batch)
    return outcomes


def _alone(db: sqlite3.Connection, write: _Write) -> _Outcome:
    """A write alone in its transaction: its error fails the transaction."""
    if write.future.cancelled():  # its caller gave up before it started
        return None
    return (True, write.work(db, *write.args))


def _unguarded(db: sqlite3.Connection, write: _Write) -> _Outcome:
    """A write among others, without a savepoint: if it raises, the batch runs again."""
    try:
        return _alone(db, write)
    except Exception as error:
        raise _WriteRaised from error


def _in_savepoint(db: sqlite3.Connection, write: _Write) -> _Outcome:
    """A write among others in a savepoint of its own: its error undoes only itself."""
    if write.future.cancelled():
        return None
    db.execute("SAVEPOINT write")
    try:
        result = write.work(db, *write.args)
    except Exception as error:
        if not db.in_transaction:  # SQLite rolled everything back (disk full, I/O error)
            raise
        db.execute("ROLLBACK TO write")
        db.execute("RELEASE write")
        return (False, error)
    db.execute("RELEASE write")
    return (True, result)


def _settle(batch: list[_Write], outcomes: list[_Outcome]) -> None:
    for write, outcome in zip(batch, outcomes, strict=True):
        if outcome is None or write.future.done():  # not run, or cancelled meanwhile
            continue
        ok, value = outcome
        if ok:
            write.future.set_result(value)
        else:
            write.future.set_exception(value)
