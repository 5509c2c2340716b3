"""The SQLite store's own path: statements straight on sqlite3, writes group-committed.

Two committers: on the event loop (`synchronous=NORMAL`, the default) and the write thread
(`synchronous=FULL`, and for the loop's writes while another process holds the write lock).
The thread's batches are made by parking it in a first write until the others are queued (the
`runner` fixture, with `?synchronous=full`); `DirectDb.run` is watched to see the transactions
(BEGIN IMMEDIATE, COMMIT...) they ran.
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
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from codebreakers.store import dialects, migrate, open_store, queries
from codebreakers.store import sqlite as sqlite_module
from codebreakers.store.base import ActionRow, AppendResult, ChatLine, RoomRow
from codebreakers.store.direct import DirectDb
from codebreakers.store.sqlite import BUSY_TIMEOUT_MS, SqliteStoreRunner

pytestmark = pytest.mark.anyio


def room(code: str) -> RoomRow:
    return RoomRow(code, "decrypto", {"seats": {"red": ["Ana"]}}, 1, True, True, 1.0, 1.0)


def act(version: int, cid: str | None = None) -> ActionRow:
    return ActionRow(version, "white:0", cid, {"n": version, "nested": [1, {"x": None}]}, 2.5)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'codebreakers.db'}"


@asynccontextmanager
async def migrated(url: str) -> AsyncIterator[SqliteStoreRunner]:
    """The store's runner on `url`, open, with the schema in place; closed afterwards."""
    opened = dialects.store_runner(url)
    assert isinstance(opened, SqliteStoreRunner)
    await opened.open()
    try:
        await opened.schema_change(migrate.upgrade)
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def runner(url: str) -> AsyncIterator[SqliteStoreRunner]:
    """A store whose writes go to the write thread."""
    async with migrated(f"{url}?synchronous=full") as opened:
        yield opened


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every driver statement (BEGIN, SAVEPOINT, COMMIT...) the direct path runs."""
    ran: list[str] = []
    run = DirectDb.run

    def watched(self: DirectDb, sql: str) -> None:
        ran.append(sql)
        run(self, sql)

    monkeypatch.setattr(DirectDb, "run", watched)
    return ran


class Parked:
    """A write that holds the write thread until released, so later writes queue up."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, db: Any) -> str:
        self.started.set()
        assert self.release.wait(10)
        return "parked"

    async def park(self, runner: SqliteStoreRunner) -> asyncio.Task[str]:
        task = asyncio.create_task(runner.write(self))
        assert await asyncio.to_thread(self.started.wait, 10)
        return task


async def queue_up(*writes: Any) -> list[asyncio.Task[Any]]:
    """Tasks for `writes`, each already queued for the write thread."""
    tasks = [asyncio.ensure_future(w) for w in writes]
    await asyncio.sleep(0)
    return tasks


def insert_then_fail(db: Any) -> None:
    queries.create_room(db, room("GONE"))
    raise LookupError("fails after writing")


async def test_queued_writes_commit_together_and_a_failing_one_undoes_only_itself(
    runner: SqliteStoreRunner, statements: list[str]
) -> None:
    await runner.write(queries.create_room, room("R"))
    await runner.write(queries.create_game, "g1", "R", "decrypto", {}, 1.0)
    parked = Parked()
    first = await parked.park(runner)
    statements.clear()
    tasks = await queue_up(
        runner.write(queries.append_action, "g1", act(1, "a")),
        runner.write(queries.create_room, room("R")),  # taken: IntegrityError
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
    runner: SqliteStoreRunner, statements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each COMMIT is held until the test lets it go: first a lone write's, then a batch's."""
    await runner.write(queries.create_room, room("R"))
    statements.clear()
    committing: queue.SimpleQueue[None] = queue.SimpleQueue()
    go_on = threading.Semaphore(0)
    run = DirectDb.run  # already watched by `statements`

    def held_commit(self: DirectDb, sql: str) -> None:
        if sql == "COMMIT":
            committing.put(None)
            assert go_on.acquire(timeout=10)
        run(self, sql)

    monkeypatch.setattr(DirectDb, "run", held_commit)

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
    db.run("PRAGMA defer_foreign_keys = ON")
    queries.create_game(db, "orphan", "NOWHERE", "decrypto", {}, 1.0)


async def test_a_failed_commit_fails_every_write_of_the_batch(runner: SqliteStoreRunner) -> None:
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
    runner: SqliteStoreRunner,
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
        await read(queries.explain_append_conflict, "g1", act(2, "c")),
        await read(queries.live_games),
        await read(queries.chat_since, "R", 1, 5),
        await read(queries.chat_of_game, "g1"),
    ]


async def test_direct_statements_store_and_return_what_sqlalchemy_does(tmp_path: Path) -> None:
    """The same writes through the direct path and through SQLAlchemy answer the same and leave
    the same bytes in the tables; either path reads either file back the same."""
    urls = [f"sqlite:///{tmp_path / name}.db" for name in ("direct", "sqlalchemy")]
    runners = [[dialects.store_runner(u), dialects.runner(u)] for u in urls]
    for pair in runners:
        for r in pair:
            await r.open()
    try:
        for direct, _ in runners:
            await direct.schema_change(migrate.upgrade)
        written = [await fill(runners[0][0].write), await fill(runners[1][1].write)]
        assert written[0] == written[1]
        assert written[0][2:4] == [True, False]

        def dump(conn: Any) -> list[Any]:
            return [
                tuple(row)
                for table in ("rooms", "games", "actions", "chat")
                for row in conn.exec_driver_sql(f"SELECT * FROM {table} ORDER BY 1, 2")
            ]

        assert await runners[0][1].read(dump) == await runners[1][1].read(dump)
        seen = [await read_everything(r.read) for pair in runners for r in pair]
        assert all(s == seen[0] for s in seen), seen
        assert seen[0][0].data == {"k": [1.5, None, "é"]} and seen[0][0].public is False
    finally:
        for pair in runners:
            for r in pair:
                await r.close()


def pragmas(db: Any) -> list[Any]:
    names = ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
    return [db.raw.execute(f"PRAGMA {name}").fetchone()[0] for name in names]


@pytest.mark.parametrize(
    ("query", "synchronous", "write_busy_ms"),
    [("", 1, 0), ("?synchronous=full", 2, BUSY_TIMEOUT_MS)],
)
async def test_the_direct_connections_are_configured_like_the_engine(
    tmp_path: Path, query: str, synchronous: int, write_busy_ms: int
) -> None:
    """...but for the busy timeout of the loop's writer, which must never wait for a lock."""
    runner = dialects.store_runner(f"sqlite:///{tmp_path / 'x.db'}{query}")
    await runner.open()
    try:
        expected = ["wal", synchronous, BUSY_TIMEOUT_MS, 1]
        assert await runner.read(pragmas) == expected
        assert await runner.write(pragmas) == [*expected[:2], write_busy_ms, 1]
    finally:
        await runner.close()


@pytest.fixture
async def on_loop(url: str) -> AsyncIterator[SqliteStoreRunner]:
    """A store whose writes commit on the event loop (the default)."""
    async with migrated(url) as opened:
        yield opened


def thread_of(work: Callable[[Any], Any]) -> Callable[[Any], tuple[int, Any]]:
    def run(db: Any) -> tuple[int, Any]:
        return threading.get_ident(), work(db)

    return run


async def test_writes_of_one_loop_round_commit_together_on_the_loop(
    on_loop: SqliteStoreRunner, statements: list[str]
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
    on_loop: SqliteStoreRunner, statements: list[str]
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


async def test_a_write_waits_in_the_write_thread_while_another_process_holds_the_lock(
    on_loop: SqliteStoreRunner, url: str
) -> None:
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
        assert ident != threading.get_ident()  # the write thread waited its turn
    finally:
        rival.close()
    assert await on_loop.read(queries.load_room, "W") == room("W")


async def test_checkpoints_run_beside_the_loop_and_not_in_its_commits(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY_S", 0.02)
    async with migrated(url) as store:
        auto = await store.write(lambda db: db.raw.execute("PRAGMA wal_autocheckpoint").fetchone())
        assert auto == (0,)
        for code in ("C1", "C2", "C3"):
            await store.write(queries.create_room, room(code))
        checkpointer = store._checkpointer
        assert checkpointer is not None
        for _ in range(100):
            if checkpointer.passes >= 2:
                break
            await asyncio.sleep(0.02)
        assert checkpointer.passes >= 2
    assert store._checkpointer is None  # stopped with the store
