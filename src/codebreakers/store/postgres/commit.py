"""Group commit for the PostgreSQL adapter: writes of several games in one statement.

Appends and room updates that queue up while a batch is on its way go together in the next one:
one statement over arrays (`unnest`), run on its own (autocommit: the statement is its
transaction, one round trip for the batch instead of BEGIN, the write and COMMIT for each). Each
row keeps its own check (the version a game or room must be at), evaluated per row inside the
statement; a row whose check fails is simply not written, and the statement's RETURNING says
which rows went in, so one game's conflict neither fails nor undoes another's write.

- A batch holds at most one write per key (game id, room code): a second write to the same game
  waits for the next batch, so it sees the first one, as it would one transaction at a time.
- Up to MAX_IN_FLIGHT batches run at once, each on its own pooled connection; the writes that
  queue meanwhile form the next. A lone write goes out at once, alone.
- Every caller gets its own result or exception once its batch's statement has returned (which
  is its commit).
- If the statement raises for a reason other than a lost connection (a value the database
  refuses), the batch's writes are run again one by one, so that only the faulty one fails.
- A lost connection (a restarted database) leaves the outcome unknown: the store's flush runs
  the batch once more on another connection, and the statement's function recognises its own
  rows stored by the first attempt instead of reporting them as conflicts (`store.py`,
  `queries.append_actions`).
- A write whose caller gave up (cancelled) before its batch started is skipped; one that was
  running completes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Writes per batch: bounds a statement's size and how long the first of a batch waits.
MAX_BATCH = 100
MAX_IN_FLIGHT = 2


@dataclass(frozen=True, slots=True)
class Queued(Generic[T, R]):
    key: Hashable
    write: T
    future: asyncio.Future[R]


class GroupCommitter(Generic[T, R]):
    """Runs the writes handed to `submit` in batches through `flush(writes)`, which returns one
    result or exception per write, in order."""

    def __init__(
        self,
        flush: Callable[[list[T]], Awaitable[list[Any]]],
        *,
        max_batch: int = MAX_BATCH,
        max_in_flight: int = MAX_IN_FLIGHT,
    ) -> None:
        self._flush = flush
        self.max_batch = max_batch
        self._slots = asyncio.Semaphore(max_in_flight)
        self._pending: list[Queued[T, R]] = []
        self._busy: set[Hashable] = set()  # keys of writes in a running batch
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self.batches = 0  # counters, for tests and measurements
        self.writes = 0

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def stop(self) -> None:
        """Let the running batches finish; fail what is still queued."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await asyncio.gather(*self._running, return_exceptions=True)
        for queued in self._pending:
            if not queued.future.done():
                queued.future.set_exception(RuntimeError("the store is closed"))
        self._pending.clear()

    async def submit(self, key: Hashable, write: T) -> R:
        if self._task is None:
            raise RuntimeError("the store is not open")
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._pending.append(Queued(key, write, future))
        self._wake.set()
        return await future

    def _take(self) -> list[Queued[T, R]]:
        """Up to max_batch queued writes, at most one per key, none of a busy key; the rest
        stay queued in their order."""
        batch: list[Queued[T, R]] = []
        left: list[Queued[T, R]] = []
        keys: set[Hashable] = set()
        for queued in self._pending:
            if queued.future.done():  # cancelled while queued
                continue
            if len(batch) >= self.max_batch or queued.key in keys or queued.key in self._busy:
                left.append(queued)
            else:
                keys.add(queued.key)
                batch.append(queued)
        self._pending = left
        return batch

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                await self._slots.acquire()
                batch = self._take()
                if not batch:
                    self._slots.release()
                    break
                self._busy.update(q.key for q in batch)
                task = asyncio.get_running_loop().create_task(self._run(batch))
                self._running.add(task)
                task.add_done_callback(self._running.discard)

    async def _run(self, batch: list[Queued[T, R]]) -> None:
        try:
            try:
                outcomes = await self._flush([q.write for q in batch])
            except BaseException as exc:  # handed to every caller
                outcomes = [exc] * len(batch)
                if isinstance(exc, asyncio.CancelledError):
                    outcomes = [RuntimeError("the store is closed")] * len(batch)
            self.batches += 1
            self.writes += len(batch)
            for queued, outcome in zip(batch, outcomes, strict=True):
                if queued.future.done():
                    continue
                if isinstance(outcome, BaseException):
                    queued.future.set_exception(outcome)
                else:
                    queued.future.set_result(outcome)
        finally:
            self._busy.difference_update(q.key for q in batch)
            self._slots.release()
            if self._pending:
                self._wake.set()
