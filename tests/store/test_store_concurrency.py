"""Two nodes on one database: one append per version wins, chat numbers never collide.

Each "node" is its own store (its own engine and connection pool) on the same database, which is
how two server processes share SQLite or PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from codebreakers.store import open_store
from codebreakers.store.base import ActionRow, AppendResult, RoomRow, Store

pytestmark = pytest.mark.anyio


@pytest.fixture
async def nodes(store: Store, store_url: str) -> AsyncIterator[list[Store]]:
    second = open_store(store_url)
    await second.open()
    try:
        yield [store, second]
    finally:
        await second.close()


async def setup_game(store: Store) -> None:
    await store.create_room(RoomRow("ROOM", "decrypto", {}, 1, True, True, 1.0, 1.0))
    await store.create_game("g1", "ROOM", "decrypto", {}, 1.0)


def act(version: int, seat: str, cid: str | None = None) -> ActionRow:
    return ActionRow(version, seat, cid, {"by": seat}, float(version))


async def test_racing_appends_at_one_version_have_exactly_one_winner(nodes: list[Store]) -> None:
    await setup_game(nodes[0])
    for version in range(1, 31):
        contenders = [
            nodes[i % 2].append_action("g1", act(version, f"seat{i}", f"{version}-{i}"))
            for i in range(4)
        ]
        results = await asyncio.gather(*contenders)
        assert results.count(AppendResult.APPENDED) == 1, results
        assert results.count(AppendResult.VERSION_CONFLICT) == 3, results
    game = await nodes[1].load_game("g1")
    assert game is not None
    assert [a.version for a in game.actions] == list(range(1, 31))


async def test_the_same_client_action_sent_to_two_nodes_is_stored_once(
    nodes: list[Store],
) -> None:
    await setup_game(nodes[0])
    for version in range(1, 11):
        results = await asyncio.gather(
            *(n.append_action("g1", act(version, "white:0", f"c{version}")) for n in nodes)
        )
        assert sorted(r.value for r in results) == ["appended", "duplicate"], results


async def test_an_append_blocked_by_an_uncommitted_rival_loses_once_it_commits(
    nodes: list[Store], backend: str, store_url: str
) -> None:
    """The rival holds its insert open while our append runs, so on PostgreSQL our transaction
    reads the old last version, inserts, waits on the primary key, and must then report a
    conflict (on SQLite the rival's write lock makes us wait before reading instead)."""
    store = nodes[0]
    await setup_game(store)
    await store.append_action("g1", act(1, "white:0", "a"))
    rival = await _raw_connect(backend, store_url)
    try:
        await rival.begin()
        await rival.insert_action("g1", 2, "black:0", "b")
        pending = asyncio.create_task(store.append_action("g1", act(2, "white:0", "w")))
        duplicate = asyncio.create_task(nodes[1].append_action("g1", act(2, "black:0", "b")))
        await rival.wait_until_blocked(2)
        assert not pending.done() and not duplicate.done()
        await rival.commit()
    finally:
        await rival.close()
    assert await pending is AppendResult.VERSION_CONFLICT
    assert await duplicate is AppendResult.DUPLICATE
    game = await store.load_game("g1")
    assert game is not None and [a.client_action_id for a in game.actions] == ["a", "b"]


async def test_concurrent_chat_from_two_nodes_numbers_every_line_once(nodes: list[Store]) -> None:
    await setup_game(nodes[0])
    lines = await asyncio.gather(
        *(
            nodes[i % 2].append_chat("ROOM", None, "all", None, f"n{i}", f"line {i}", float(i))
            for i in range(40)
        )
    )
    assert sorted(line.seq for line in lines) == list(range(1, 41))
    stored = await nodes[0].chat_since("ROOM", 0)
    assert [line.seq for line in stored] == list(range(1, 41))
    assert {line.text for line in stored} == {f"line {i}" for i in range(40)}


class _Rival:
    """A bare connection that writes an action row in a transaction it holds open."""

    def __init__(self, backend: str, conn: object) -> None:
        self.backend = backend
        self.conn = conn

    async def begin(self) -> None:
        await self._run("BEGIN IMMEDIATE" if self.backend == "sqlite" else "BEGIN")

    async def insert_action(self, game_id: str, version: int, seat: str, cid: str) -> None:
        values = (game_id, version, seat, cid, '{"by": "rival"}', 2.0)
        if self.backend == "sqlite":
            sql = "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)"
        else:
            sql = "INSERT INTO actions VALUES ($1, $2, $3, $4, $5::jsonb, $6)"
        await self._run(sql, *values)

    async def wait_until_blocked(self, waiters: int) -> None:
        """Until `waiters` other transactions wait on our locks (PostgreSQL), or a moment."""
        if self.backend == "sqlite":
            await asyncio.sleep(0.3)
            return
        pid = await self.conn.fetchval("SELECT pg_backend_pid()")  # type: ignore[attr-defined]
        for _ in range(200):
            blocked = await self.conn.fetchval(  # type: ignore[attr-defined]
                "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
                pid,
            )
            if blocked >= waiters:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the store's transactions never waited for the rival")

    async def commit(self) -> None:
        await self._run("COMMIT")

    async def close(self) -> None:
        await self.conn.close()  # type: ignore[attr-defined]

    async def _run(self, sql: str, *args: object) -> None:
        if self.backend == "sqlite":
            await self.conn.execute(sql, args)  # type: ignore[attr-defined]
        else:
            await self.conn.execute(sql, *args)  # type: ignore[attr-defined]


async def _raw_connect(backend: str, url: str) -> _Rival:
    if backend == "sqlite":
        import aiosqlite

        conn = await aiosqlite.connect(make_url(url).database, isolation_level=None)
        return _Rival(backend, conn)
    return _Rival(backend, await asyncpg.connect(url))
