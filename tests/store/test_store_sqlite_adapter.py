"""The SQLite adapter's own path: SQL straight on sqlite3, writes group-committed.

One committer, whose batches run on the event loop (`synchronous=NORMAL`, the default) or in a
write thread of their own (`synchronous=FULL`). The thread's batches are made by parking it in
a first write until the others are queued (the `runner` fixture, with `?synchronous=full`);
the write connection's trace callback shows the transactions (BEGIN IMMEDIATE, COMMIT...) they
ran.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from sqlite3 import IntegrityError
from typing import Any

import pytest
import sqlalchemy as sa

from codebreakers.store import dialects, open_store, schema
from codebreakers.store.base import ActionRow, AppendResult, ChatLine, RoomRow, StoreBusy
from codebreakers.store.sqlite import BUSY_TIMEOUT_MS, SqliteFile, SqliteStore, queries
from codebreakers.store.sqlite import store as sqlite_store_module

pytestmark = pytest.mark.anyio

# The statements that shape transactions; the trace callback sees the queries' too.
TRANSACTION_STATEMENTS = {
    "BEGIN",
    "BEGIN IMMEDIATE",
    "COMMIT",
    "ROLLBACK",
    "SAVEPOINT write",
    "ROLLBACK TO write",
    "RELEASE write",
}


def room(code: str) -> RoomRow:
    return RoomRow(code, "decrypto", {"seats": {"red": ["Ana"]}}, 1, True, True, 1.0, 1.0)


def act(version: int, cid: str | None = None) -> ActionRow:
    return ActionRow(version, "white:0", cid, {"n": version, "nested": [1, {"x": None}]}, 2.5)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'codebreakers.db'}"


@asynccontextmanager
async def migrated(url: str) -> AsyncIterator[SqliteStore]:
    """The SQLite store on `url`, open (so migrated); closed afterwards."""
    opened = open_store(url)
    assert isinstance(opened, SqliteStore)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def runner(url: str) -> AsyncIterator[SqliteStore]:
    """A store whose writes go to the write thread."""
    async with migrated(f"{url}?synchronous=full") as opened:
        yield opened


def writer_of(store: SqliteStore) -> sqlite3.Connection:
    assert store._committer is not None
    return store._committer.db


class Statements(list[str]):
    """The transaction statements the write connection runs; `hold` is called before each
    runs, in the thread that runs it."""

    def __init__(self) -> None:
        super().__init__()
        self.hold: Callable[[str], None] = lambda sql: None

    def __call__(self, sql: str) -> None:
        if sql in TRANSACTION_STATEMENTS:
            self.hold(sql)
            self.append(sql)


def watch(store: SqliteStore) -> Statements:
    ran = Statements()
    writer_of(store).set_trace_callback(ran)
    return ran


@pytest.fixture
def statements(request: pytest.FixtureRequest) -> Statements:
    """Every transaction statement (BEGIN, SAVEPOINT, COMMIT...) of the test's store's writer."""
    store = request.getfixturevalue("on_loop" if "on_loop" in request.fixturenames else "runner")
    return watch(store)


class Parked:
    """A write that holds the write thread until released, so later writes queue up."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, db: Any) -> str:
        self.started.set()
        assert self.release.wait(10)
        return "parked"

    async def park(self, runner: SqliteStore) -> asyncio.Task[str]:
        task = asyncio.create_task(runner.write(self))
        assert await asyncio.to_thread(self.started.wait, 10)
        return task


async def queue_up(*writes: Any) -> list[asyncio.Task[Any]]:
    """Tasks for `writes`, each already queued for the committer."""
    tasks = [asyncio.ensure_future(w) for w in writes]
    await asyncio.sleep(0)
    return tasks


def insert_then_fail(db: Any) -> None:
    queries.create_room(db, room("GONE"))
    raise LookupError("fails after writing")


async def test_queued_writes_commit_together_and_a_failing_one_undoes_only_itself(
    runner: SqliteStore, statements: Statements
) -> None:
    await runner.write(queries.create_room, room("R"))
    await runner.write(queries.create_game, "g1", "R", "decrypto", {}, 1.0)
    parked = Parked()
    first = await parked.park(runner)
    statements.clear()
    tasks = await queue_up(
        runner.write(queries.append_action, "g1", act(1, "a")),
        runner.write(queries.create_game, "g1", "R", "decrypto", {}, 1.0),  # IntegrityError
        runner.write(insert_then_fail),
        runner.write(queries.append_action, "nope", act(1)),  # unknown game: LookupError
        runner.write(queries.append_action, "g1", act(2, "b")),
        runner.write(queries.append_action, "g1", act(3, "a")),  # retried: DUPLICATE
        runner.write(queries.append_chat, "R", "g1", "all", "white:0", "Ana", "hi", 3.0, "m1"),
    )
    parked.release.set()
    assert await first == "parked"
    results = await asyncio.gather(*tasks, return_exceptions=True)

    assert results[0] is AppendResult.APPENDED
    assert isinstance(results[1], IntegrityError)
    assert isinstance(results[2], LookupError) and "after writing" in str(results[2])
    assert isinstance(results[3], LookupError) and "nope" in str(results[3])
    assert results[4:6] == [AppendResult.APPENDED, AppendResult.DUPLICATE]
    assert results[6] == ChatLine(1, "R", "g1", "all", "white:0", "Ana", "hi", 3.0, "m1")
    # The parked write's COMMIT; the seven without savepoints until the second raised, rolled
    # back; then again in one transaction, each in a savepoint.
    assert statements[:3] == ["COMMIT", "BEGIN IMMEDIATE", "ROLLBACK"]
    assert statements[3:].count("BEGIN IMMEDIATE") == statements[3:].count("COMMIT") == 1
    assert statements.count("SAVEPOINT write") == 7
    assert statements.count("ROLLBACK TO write") == 3

    assert await runner.read(queries.load_room, "GONE") is None
    assert await runner.read(queries.load_room, "R") == room("R")
    game = await runner.read(queries.load_game, "g1")
    assert game is not None and game.actions == [act(1, "a"), act(2, "b")]


async def test_no_write_is_answered_before_its_commit(
    runner: SqliteStore, statements: Statements
) -> None:
    """Each COMMIT is held until the test lets it go: first a lone write's, then a batch's."""
    await runner.write(queries.create_room, room("R"))
    statements.clear()
    committing: queue.SimpleQueue[None] = queue.SimpleQueue()
    go_on = threading.Semaphore(0)

    def held_commit(sql: str) -> None:
        if sql == "COMMIT":
            committing.put(None)
            assert go_on.acquire(timeout=10)

    statements.hold = held_commit

    def update(version: int) -> Any:
        return runner.write(queries.update_room, "R", version, {"v": version}, True, True, 2.0)

    (alone,) = await queue_up(update(1))
    await asyncio.to_thread(committing.get, timeout=10)
    batch = await queue_up(update(2), update(3))
    await asyncio.sleep(0.2)  # time enough for an early answer to arrive
    assert not alone.done()
    go_on.release()
    assert await alone is True

    await asyncio.to_thread(committing.get, timeout=10)
    await asyncio.sleep(0.2)
    assert not any(t.done() for t in batch)
    go_on.release()
    assert await asyncio.gather(*batch) == [True, True]
    assert statements == ["BEGIN IMMEDIATE", "COMMIT"] * 2  # the lone write, then the pair


def orphan_found_at_commit(db: Any) -> None:
    """A game of no room, its foreign key checked only at COMMIT (which then fails)."""
    db.execute("PRAGMA defer_foreign_keys = ON")
    queries.create_game(db, "orphan", "NOWHERE", "decrypto", {}, 1.0)


async def test_a_failed_commit_fails_every_write_of_the_batch(runner: SqliteStore) -> None:
    await runner.write(queries.create_room, room("R"))
    parked = Parked()
    first = await parked.park(runner)
    tasks = await queue_up(
        runner.write(queries.create_room, room("S")),
        runner.write(orphan_found_at_commit),
        runner.write(queries.update_room, "R", 1, {}, True, True, 2.0),
    )
    parked.release.set()
    assert await first == "parked"  # committed alone, before the others queued
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(isinstance(r, IntegrityError) and "FOREIGN KEY" in str(r) for r in results)
    assert await runner.read(queries.load_room, "S") is None
    assert (await runner.read(queries.load_room, "R")) == room("R")  # version 1 still
    # The write thread goes on.
    assert await runner.write(queries.update_room, "R", 1, {}, True, True, 2.0)


async def test_a_write_cancelled_while_queued_never_runs_one_running_completes(
    runner: SqliteStore,
) -> None:
    parked = Parked()

    def create_then_park(db: Any) -> str:
        queries.create_room(db, room("A"))
        return parked(db)

    running = asyncio.create_task(runner.write(create_then_park))
    assert await asyncio.to_thread(parked.started.wait, 10)
    (queued,) = await queue_up(runner.write(queries.create_room, room("B")))
    running.cancel()
    queued.cancel()
    parked.release.set()
    for task in (running, queued):
        with pytest.raises(asyncio.CancelledError):
            await task
    await runner.write(queries.create_room, room("C"))  # after the cancelled ones
    assert await runner.read(queries.load_room, "A") == room("A")
    assert await runner.read(queries.load_room, "B") is None


async def test_many_writers_at_once_each_get_their_own_answer(url: str) -> None:
    """Racing appends (two per version, one a retry of the other's client id half the time)
    across games, chat lines and room updates, from one store, committed in whatever batches."""
    store = open_store(url)
    await store.open()
    try:
        await store.create_room(room("R"))
        games = [f"g{i}" for i in range(8)]
        for g in games:
            await store.create_game(g, "R", "decrypto", {}, 1.0)

        async def play(game: str) -> list[AppendResult]:
            seen = []
            for v in range(1, 16):
                rival_cid = f"{v}" if v % 2 else f"{v}-rival"
                pair = await asyncio.gather(
                    store.append_action(game, act(v, f"{v}")),
                    store.append_action(game, act(v, rival_cid)),
                )
                assert pair[0] is AppendResult.APPENDED
                seen.append(pair[1])
            return seen

        async def chat(i: int) -> int:
            return (await store.append_chat("R", None, "all", None, "n", f"line {i}", 1.0)).seq

        async def update(version: int) -> list[bool]:
            return await asyncio.gather(
                *(
                    store.update_room("R", version, {"by": i}, public=True, waiting=False, now=2.0)
                    for i in range(3)
                )
            )

        async def updates() -> list[list[bool]]:
            return [await update(v) for v in range(1, 11)]

        played, seqs, updated = await asyncio.gather(
            asyncio.gather(*(play(g) for g in games)),
            asyncio.gather(*(chat(i) for i in range(60))),
            updates(),
        )
        assert all(sorted(u) == [False, False, True] for u in updated), updated
        stored_room = await store.load_room("R")
        assert stored_room is not None and stored_room.version == 11
        for rivals in played:
            expected = [
                AppendResult.DUPLICATE if v % 2 else AppendResult.VERSION_CONFLICT
                for v in range(1, 16)
            ]
            assert rivals == expected
        assert sorted(seqs) == list(range(1, 61))
        for g in games:
            game = await store.load_game(g)
            assert game is not None
            assert [(a.version, a.client_action_id) for a in game.actions] == [
                (v, f"{v}") for v in range(1, 16)
            ]
    finally:
        await store.close()


async def fill(write: Callable[..., Any]) -> list[Any]:
    """Every kind of write, with JSON, booleans, floats, NULLs and non-ASCII text."""
    return [
        await write(queries.create_room, room("R")),
        await write(queries.create_room, room("S")),
        await write(queries.create_room, room("S")),  # taken
        await write(queries.update_room, "R", 1, {"k": [1.5, None, "é"]}, False, True, 2),
        await write(queries.update_room, "R", 1, {}, False, True, 2.0),
        await write(queries.create_game, "g1", "R", "decrypto", {"seed": 7}, 3.0),
        await write(queries.create_game, "g2", "S", "decrypto", {}, 3.0),
        *[await write(queries.append_action, "g1", act(v, c)) for v, c in enumerate("a-c", 1)],
        await write(queries.append_action, "g1", act(4, "a")),
        await write(queries.append_action, "g1", act(9, "z")),
        await write(queries.finish_game, "g1", {"winner": "white"}),
        await write(queries.append_chat, "R", "g1", "all", None, "n", "é", 4.0, None),
        await write(queries.append_chat, "R", "g1", "team:white", "white:0", "Ana", "x", 5, "m"),
        await write(queries.append_chat, "R", "g1", "team:white", "white:0", "Ana", "y", 6, "m"),
    ]


async def read_everything(read: Callable[..., Any]) -> list[Any]:
    return [
        await read(queries.load_room, "R"),
        await read(queries.load_room, "nope"),
        await read(queries.list_rooms, True, True, 10),
        await read(queries.list_rooms, False, True, 10),
        await read(queries.load_game, "g1"),
        await read(queries.load_game, "g2"),
        await read(queries.actions_since, "g1", 1),
        await read(queries.find_action, "g1", "white:0", "c"),
        await read(queries.live_games),
        await read(queries.chat_since, "R", 1, 5),
        await read(queries.chat_of_game, "g1"),
        await read(queries.room_head, "R", "g1"),
    ]


def as_sqlalchemy_reads(conn: sa.Connection) -> dict[str, list[Any]]:
    """Every table through SQLAlchemy Core and schema.py's column types (JSON, Boolean, Float)."""
    return {
        t.name: [r._asdict() for r in conn.execute(sa.select(t).order_by(*t.primary_key))]
        for t in (schema.rooms, schema.games, schema.actions, schema.chat)
    }


def copy_through_sqlalchemy(conn: sa.Connection, tables: dict[str, list[Any]]) -> None:
    """Insert the rows with SQLAlchemy's own JSON encoder (the standard library's, as the files
    of versions before the direct path hold: `\\u` escapes)."""
    for t in (schema.rooms, schema.games, schema.actions, schema.chat):
        if tables[t.name]:
            conn.execute(sa.insert(t), tables[t.name])


async def through_sqlalchemy(url: str, work: Callable[[sa.Connection], Any]) -> Any:
    runner = dialects.runner(url)
    await runner.open()
    try:
        return await runner.read(work)
    finally:
        await runner.close()


async def test_the_adapter_stores_and_reads_what_sqlalchemy_does(tmp_path: Path) -> None:
    """What the adapter writes reads back through SQLAlchemy's column types as it was given, and
    rows SQLAlchemy writes (with its default JSON encoder) read back through the adapter the
    same: the files of earlier versions, written through SQLAlchemy, stay readable."""
    urls = [f"sqlite:///{tmp_path / name}.db" for name in ("adapter", "sqlalchemy")]
    async with migrated(urls[0]) as first, migrated(urls[1]) as second:
        written = await fill(first.write)
        assert written[2:5] == [False, True, False]  # a taken code; one update of two
        tables = await through_sqlalchemy(urls[0], as_sqlalchemy_reads)
        assert tables["rooms"][0]["data"] == {"k": [1.5, None, "é"]}
        assert tables["rooms"][0]["public"] is False and tables["games"][0]["over"] is True
        assert tables["games"][1]["outcome"] is None

        plain = sa.create_engine(f"sqlite:///{tmp_path / 'sqlalchemy.db'}")  # stdlib json
        with plain.begin() as conn:
            copy_through_sqlalchemy(conn, tables)
        plain.dispose()
        with sqlite3.connect(tmp_path / "sqlalchemy.db") as raw:
            (stored,) = raw.execute("SELECT data FROM rooms WHERE code = 'R'").fetchone()
        assert "\\u00e9" in stored

        seen = [await read_everything(first.read), await read_everything(second.read)]
        assert seen[0] == seen[1]
        assert seen[0][0].data == {"k": [1.5, None, "é"]} and seen[0][0].public is False
        assert await through_sqlalchemy(urls[1], as_sqlalchemy_reads) == tables


def pragmas(db: Any) -> list[Any]:
    names = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
    return [db.execute(f"PRAGMA {name}").fetchone()[0] for name in names]


@pytest.mark.parametrize(("query", "synchronous"), [("", 1), ("?synchronous=full", 2)])
async def test_the_adapters_connections_are_configured_like_the_engine(
    tmp_path: Path, query: str, synchronous: int
) -> None:
    """...but for the busy timeout of the writer, which waits for a lock on its own (with
    backoff in the committer) and so never inside SQLite."""
    async with migrated(f"sqlite:///{tmp_path / 'x.db'}{query}") as store:
        expected = ["wal", synchronous, BUSY_TIMEOUT_MS, 1]
        assert await store.read(pragmas) == expected
        assert await store.write(pragmas) == [*expected[:2], 0, 1]


@pytest.fixture
async def on_loop(url: str) -> AsyncIterator[SqliteStore]:
    """A store whose writes commit on the event loop (the default)."""
    async with migrated(url) as opened:
        yield opened


def thread_of(work: Callable[[Any], Any]) -> Callable[[Any], tuple[int, Any]]:
    def run(db: Any) -> tuple[int, Any]:
        return threading.get_ident(), work(db)

    return run


async def test_writes_of_one_loop_round_commit_together_on_the_loop(
    on_loop: SqliteStore, statements: Statements
) -> None:
    tasks = await queue_up(
        on_loop.write(thread_of(lambda db: queries.create_room(db, room("A")))),
        on_loop.write(insert_then_fail),
        on_loop.write(thread_of(lambda db: queries.create_room(db, room("B")))),
    )
    first, failed, last = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(failed, LookupError)
    assert first[0] == last[0] == threading.get_ident()  # the loop's own thread
    # Without savepoints until the failing write, rolled back; then again, in savepoints.
    assert statements.count("BEGIN IMMEDIATE") == 2 and statements.count("ROLLBACK") == 1
    assert statements.count("COMMIT") == 1 and statements.count("SAVEPOINT write") == 3
    assert await on_loop.read(queries.load_room, "GONE") is None  # undone alone
    assert [await on_loop.read(queries.load_room, c) for c in "AB"] == [room("A"), room("B")]


async def test_a_batch_whose_writes_all_succeed_runs_without_savepoints(
    on_loop: SqliteStore, statements: Statements
) -> None:
    await on_loop.write(queries.create_room, room("R"))
    await on_loop.write(queries.create_game, "g1", "R", "decrypto", {}, 1.0)
    statements.clear()
    tasks = await queue_up(
        on_loop.write(queries.append_action, "g1", act(1, "a")),
        on_loop.write(queries.append_action, "g1", act(2, "b")),
        on_loop.write(queries.append_action, "g1", act(3, "a")),  # retried: DUPLICATE
        on_loop.write(queries.append_chat, "R", "g1", "all", "white:0", "Ana", "hi", 3.0, "m1"),
    )
    results = await asyncio.gather(*tasks)
    assert results[:3] == [AppendResult.APPENDED, AppendResult.APPENDED, AppendResult.DUPLICATE]
    assert results[3] == ChatLine(1, "R", "g1", "all", "white:0", "Ana", "hi", 3.0, "m1")
    assert statements == ["BEGIN IMMEDIATE", "COMMIT"]
    game = await on_loop.read(queries.load_game, "g1")
    assert game is not None and game.actions == [act(1, "a"), act(2, "b")]


async def test_a_write_waits_beside_the_loop_while_another_process_holds_the_lock(
    on_loop: SqliteStore, url: str
) -> None:
    """The committer tries again with backoff; the loop goes on meanwhile, and the write
    commits (on the loop) once the lock is free."""
    rival = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        rival.execute("BEGIN IMMEDIATE")  # another process's write transaction
        write = asyncio.ensure_future(
            on_loop.write(thread_of(lambda db: queries.create_room(db, room("W"))))
        )
        started = time.perf_counter()
        await asyncio.sleep(0.2)
        assert time.perf_counter() - started < 0.5  # the loop went on meanwhile
        assert not write.done()
        rival.execute("COMMIT")
        ident, _ = await asyncio.wait_for(write, 10)
        assert ident == threading.get_ident()  # it waited its turn, then ran on the loop
    finally:
        rival.close()
    assert await on_loop.read(queries.load_room, "W") == room("W")


@pytest.mark.parametrize("query", ["", "?synchronous=full"])
async def test_a_lock_held_past_the_busy_timeout_fails_the_write_busy(
    tmp_path: Path, query: str
) -> None:
    """Once the bounded wait is over the write fails with StoreBusy, having done nothing; the
    store goes on once the lock is free."""
    path = tmp_path / "x.db"
    store = SqliteStore(SqliteFile.of(str(path), query.partition("=")[2] or None), 300)
    await store.open()
    rival = sqlite3.connect(path, isolation_level=None)
    try:
        rival.execute("BEGIN IMMEDIATE")
        started = time.perf_counter()
        with pytest.raises(StoreBusy, match="write lock"):
            await store.create_room(room("B"))
        assert 0.2 < time.perf_counter() - started < 5
        rival.execute("COMMIT")
        assert await store.load_room("B") is None
        assert await store.create_room(room("B"))
    finally:
        rival.close()
        await store.close()


async def test_checkpoints_run_beside_the_loop_and_not_in_its_commits(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_store_module, "CHECKPOINT_EVERY_S", 0.02)
    async with migrated(url) as store:
        auto = await store.write(lambda db: db.execute("PRAGMA wal_autocheckpoint").fetchone())
        assert auto == (0,)
        for code in ("C1", "C2", "C3", "C4"):
            await asyncio.sleep(0.03)
            await store.write(queries.create_room, room(code))
        for _ in range(100):
            if store.checkpoints >= 2:
                break
            await asyncio.sleep(0.02)
        assert store.checkpoints >= 2
    assert store._readers is None  # stopped with the store
