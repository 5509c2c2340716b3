"""How the store runs its queries on SQLite: the stdlib driver, in worker threads.

Each unit of work (one `queries` function, one transaction) goes to a thread in one hop. The
async driver, aiosqlite, hops to its thread for every cursor, execute, fetch and close, a dozen
times per append; measured on this machine that cost 3x the CPU per append (see
docs/storage.md). Writes go to one committer, so this process's writers queue there instead of
in SQLite's busy handler; reads go to a small pool and run alongside (WAL lets readers proceed
while one writer commits).

`SqliteRunner` hands work a SQLAlchemy Connection (migrations, tools, tests). The store itself
uses `SqliteStoreRunner`, which runs the `queries` functions straight on the sqlite3 driver
(`direct.py`) and commits the writes that queued up meanwhile together (group commit): one
BEGIN IMMEDIATE ... COMMIT, each write inside a SAVEPOINT of its own, so a write that fails
rolls back only itself. Every caller gets its own result or exception, and only once the COMMIT
has succeeded; if the COMMIT fails, every write of the batch fails with it. With
`synchronous=NORMAL` the batches commit on the event loop itself (`_LoopCommitter`), with
`FULL` in the write thread (docs/storage.md, "Group commit").

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
import logging
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
from sqlalchemy.exc import DBAPIError

from codebreakers.store.direct import DirectDb, json_text

T = TypeVar("T")
log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 10_000
WAL = "journal_mode=WAL"
SYNCHRONOUS_MODES = ("normal", "full")
READ_THREADS = 4
# Writes per group commit: bounds how long the first of a batch waits for its COMMIT.
MAX_BATCH = 100
CHECKPOINT_EVERY_S = 1.0  # with the loop's committer (synchronous=NORMAL): see _Checkpointer
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
        engine = create_engine(
            self._url, connect_args={"check_same_thread": False}, json_serializer=json_text
        )
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
        self._committer: _GroupCommitter | _LoopCommitter | None = None
        self._checkpointer: _Checkpointer | None = None
        self._held: list[Connection] = []  # the threads' connections, from the engine's pool
        self._local = threading.local()

    async def open(self) -> None:
        await super().open()
        waiter = _GroupCommitter(self._checkout)
        if self._synchronous == "FULL":  # an fsync per COMMIT: never on the loop
            self._committer = waiter
        else:
            self._committer = _LoopCommitter(self._checkout, waiter)
            self._checkpointer = _Checkpointer(self._checkout)

    async def close(self) -> None:
        committer, readers, self._committer = self._committer, self._readers, None
        checkpointer, self._checkpointer = self._checkpointer, None
        if committer is not None:
            await asyncio.to_thread(committer.stop)
        if checkpointer is not None:
            await asyncio.to_thread(checkpointer.stop)
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
    future: asyncio.Future[Any]  # on the caller's loop


_Outcome = tuple[bool, Any] | None  # (True, result) or (False, exception); None: not run


class _Committer:
    """What both committers share: their own connection, opened by the first batch (in the
    thread that runs the batches)."""

    def __init__(self, connect: Callable[[], DirectDb]) -> None:
        self._connect = connect
        self._db: DirectDb | None = None

    def _connection(self) -> DirectDb:
        if self._db is None:
            self._db = self._connect()
        return self._db


class _GroupCommitter(_Committer):
    """The write thread: takes every write queued, runs them in one transaction, then answers."""

    def __init__(self, connect: Callable[[], DirectDb]) -> None:
        super().__init__(connect)
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        # A daemon, so a store left open can't hold the interpreter at exit (queued writes were
        # not acknowledged, so nothing promised is lost).
        self._thread = threading.Thread(target=self._serve, name="store-write", daemon=True)
        self._thread.start()

    def submit(self, work: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.take(_Write(work, args, future))
        return future

    def take(self, write: _Write) -> None:
        """Queue a write made elsewhere (the loop's committer hands over those it can't run)."""
        self._queue.put(write)

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
            outcomes = _commit(self._connection, batch, give_way=False)
            assert outcomes is not None  # it waits for the write lock (busy_timeout)
            _answer(batch, outcomes)


class _LoopCommitter(_Committer):
    """Group commit on the event loop's own thread: the writes asked for while the loop runs one
    round of callbacks commit together at the end of it, in one transaction.

    A COMMIT with `synchronous=NORMAL` only hands the WAL frames to the operating system (~0.15
    ms a batch measured under load), so the loop can afford it, and it saves what the write
    thread costs: the GIL passed back and forth at every statement, and a thread wake-up per
    batch (docs/performance.md). The loop must never wait on a lock or a disk, though: its
    connection gives up at once when another process holds the write lock (the write thread,
    which waits its turn, takes those writes), and checkpoints, which fsync, are left to
    `_Checkpointer`.
    """

    def __init__(self, connect: Callable[[], DirectDb], waiter: _GroupCommitter) -> None:
        super().__init__(partial(_never_waiting, connect))
        self._waiter = waiter
        self._pending: list[_Write] = []
        self._scheduled = False

    def submit(self, work: Callable[..., T], args: tuple[Any, ...]) -> asyncio.Future[T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append(_Write(work, args, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    def stop(self) -> None:
        """Hand what is still queued to the write thread, which answers from any thread, and let
        it finish (blocks: call it in a thread)."""
        batch, self._pending = self._pending, []
        for write in batch:
            self._waiter.take(write)
        self._waiter.stop()

    def _flush(self) -> None:
        self._scheduled = False
        batch, self._pending = self._pending, []
        for start in range(0, len(batch), MAX_BATCH):
            part = batch[start : start + MAX_BATCH]
            outcomes = _commit(self._connection, part, give_way=True)
            if outcomes is None:  # another process holds the write lock: the thread waits
                for write in part:
                    self._waiter.take(write)
            else:
                _settle(_answers(part, outcomes))


def _never_waiting(connect: Callable[[], DirectDb]) -> DirectDb:
    """A connection for the event loop: it gives up at once on another process's write lock,
    and leaves checkpoints (which fsync) to `_Checkpointer`."""
    db = connect()
    db.run("PRAGMA busy_timeout=0")
    db.run("PRAGMA wal_autocheckpoint=0")
    return db


class _Checkpointer:
    """Copies the WAL back into the database file every CHECKPOINT_EVERY_S, from a thread of its
    own (a checkpoint fsyncs), in SQLite's passive mode: it never waits on a reader or writer."""

    def __init__(self, connect: Callable[[], DirectDb]) -> None:
        self.passes = 0
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._serve, args=(connect,), name="store-checkpoint", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """One last checkpoint, then end the thread (blocks: call it in a thread)."""
        self._stopping.set()
        self._thread.join()

    def _serve(self, connect: Callable[[], DirectDb]) -> None:
        db: DirectDb | None = None
        stopping = False
        while not stopping:
            stopping = self._stopping.wait(CHECKPOINT_EVERY_S)
            try:
                db = db or connect()
                db.run("PRAGMA wal_checkpoint(PASSIVE)")
                self.passes += 1
            except Exception:
                log.warning("WAL checkpoint failed; trying again later", exc_info=True)


def _commit(
    connection: Callable[[], DirectDb], batch: list[_Write], *, give_way: bool
) -> list[_Outcome] | None:
    """Run the batch in one transaction and COMMIT: every write's outcome, known once COMMIT
    succeeded; if anything failed the transaction, its error for all. With `give_way`, None
    when another connection holds the write lock (nothing was run).

    Several writes run one after the other first; only when one of them raises is that
    transaction rolled back and the batch run again with each write in a savepoint of its own,
    so the failing one undoes only itself. Writes rarely raise (a lost race, a taken room
    code), and a savepoint costs two statements per write."""
    if len(batch) == 1:
        return _transaction(connection, batch, give_way, _alone)
    try:
        return _transaction(connection, batch, give_way, _unguarded)
    except _WriteRaised:
        return _transaction(connection, batch, give_way, _in_savepoint)


class _WriteRaised(Exception):
    """A write of a batch run without savepoints raised: the batch must run again with them."""


def _transaction(
    connection: Callable[[], DirectDb],
    batch: list[_Write],
    give_way: bool,
    run: Callable[[DirectDb, _Write], _Outcome],
) -> list[_Outcome] | None:
    """`run` each write in one transaction (see `_commit`); `_WriteRaised` passes through."""
    try:
        db = connection()
        db.run("BEGIN IMMEDIATE")
    except BaseException as error:
        if give_way and _busy(error):
            return None
        return [(False, error)] * len(batch)
    try:
        try:
            outcomes = [run(db, write) for write in batch]
            db.run("COMMIT")
        except BaseException:
            if db.raw.in_transaction:
                db.run("ROLLBACK")
            raise
    except _WriteRaised:
        raise
    except BaseException as error:
        return [(False, error)] * len(batch)
    return outcomes


def _alone(db: DirectDb, write: _Write) -> _Outcome:
    """A write alone in its transaction: its error fails the transaction."""
    if write.future.cancelled():  # its caller gave up before it started
        return None
    return (True, write.work(db, *write.args))


def _unguarded(db: DirectDb, write: _Write) -> _Outcome:
    """A write among others, without a savepoint: if it raises, the batch runs again."""
    try:
        return _alone(db, write)
    except Exception as error:
        raise _WriteRaised from error


def _in_savepoint(db: DirectDb, write: _Write) -> _Outcome:
    """A write among others in a savepoint of its own: its error undoes only itself."""
    if write.future.cancelled():
        return None
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


def _busy(error: BaseException) -> bool:
    """SQLite's "database is locked": another connection holds the write lock."""
    if not isinstance(error, DBAPIError):
        return False
    return getattr(error.orig, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY


_Answer = tuple[asyncio.Future[Any], bool, Any]


def _answers(batch: list[_Write], outcomes: list[_Outcome]) -> list[_Answer]:
    """(future, ok, result or exception) of each write that ran."""
    return [(w.future, *o) for w, o in zip(batch, outcomes, strict=True) if o is not None]


def _answer(batch: list[_Write], outcomes: list[_Outcome]) -> None:
    """Hand each outcome to its caller's loop (from another thread), one wake-up per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Answer]] = {}
    for answer in _answers(batch, outcomes):
        by_loop.setdefault(answer[0].get_loop(), []).append(answer)
    for loop, answers in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            loop.call_soon_threadsafe(_settle, answers)


def _settle(answers: list[_Answer]) -> None:
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
