"""PostgreSQL group commit: writes of several games in one statement, each with its own check.

Writes handed to the store in the same round of the event loop go in one batch (`commit.py`);
one game's conflict, unknown game or refused value must fail only that write.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from codebreakers.campaigns.killable_nodes import admin_sql
from codebreakers.store.base import ActionRow, AppendResult, RoomRow
from codebreakers.store.postgres.store import PostgresStore

pytestmark = [pytest.mark.anyio, pytest.mark.postgres]


@pytest.fixture
async def pg(module_postgres_url: str) -> AsyncIterator[PostgresStore]:
    admin_sql(
        module_postgres_url,
        "DO $$ BEGIN IF to_regclass('rooms') IS NOT NULL THEN"
        " TRUNCATE settled_games, game_results, profile_stats, ratings, room_players, game_players,"
        " passkeys,"
        " profile_devices, chat, profiles,"
        " actions, games, rooms; END IF; END $$",
    )
    store = PostgresStore(make_url(module_postgres_url))
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def act(version: int, cid: str | None = None, seat: str = "white:0") -> ActionRow:
    return ActionRow(version, seat, cid, {"n": version}, float(version))


async def games(store: PostgresStore, count: int) -> list[str]:
    await store.create_room(RoomRow("ROOM", "decrypto", {}, 1, True, True, 0.0, 0.0))
    ids = [f"g{i}" for i in range(count)]
    for game_id in ids:
        await store.create_game(game_id, "ROOM", "decrypto", {}, 0.0)
    return ids


async def test_one_games_failure_in_a_batch_leaves_the_others_written(pg: PostgresStore) -> None:
    ids = await games(pg, 5)
    await pg.append_action("g3", act(1, "a"))
    before = pg.appends.batches
    results = await asyncio.gather(
        pg.append_action("g0", act(1)),
        pg.append_action("g1", act(2)),  # g1 is at version 0: a conflict
        pg.append_action("nope", act(1)),  # no such game
        pg.append_action("g3", act(2, "a")),  # g3 stored client action "a" already
        pg.append_action("g4", act(1, "b")),
        return_exceptions=True,
    )
    assert pg.appends.batches == before + 1  # one statement for all five
    assert results[0] is AppendResult.APPENDED
    assert results[1] is AppendResult.VERSION_CONFLICT
    assert isinstance(results[2], LookupError)
    assert results[3] is AppendResult.DUPLICATE
    assert results[4] is AppendResult.APPENDED
    stored = {g: await pg.actions_since(g, 0) for g in ids}
    assert [a.version for a in stored["g0"]] == [1]
    assert stored["g1"] == []
    assert [a.client_action_id for a in stored["g3"]] == ["a"]
    assert [a.version for a in stored["g4"]] == [1]


async def test_two_writes_to_one_game_go_in_turn(pg: PostgresStore) -> None:
    """The second write to a game waits for the next batch, so it sees the first."""
    await games(pg, 2)
    results = await asyncio.gather(
        pg.append_action("g0", act(1)),
        pg.append_action("g0", act(2)),
        pg.append_action("g0", act(2, seat="black:0")),  # loses to the one before
        pg.append_action("g1", act(1)),
    )
    assert results == [
        AppendResult.APPENDED,
        AppendResult.APPENDED,
        AppendResult.VERSION_CONFLICT,
        AppendResult.APPENDED,
    ]
    assert [(a.version, a.seat) for a in await pg.actions_since("g0", 0)] == [
        (1, "white:0"),
        (2, "white:0"),
    ]


async def test_an_action_sent_again_without_a_client_id_is_not_doubled(pg: PostgresStore) -> None:
    """The same row at the same version (an answer lost with its connection, sent again) is
    the write already stored; a different row there is a conflict."""
    await games(pg, 1)
    assert await pg.append_action("g0", act(1)) is AppendResult.APPENDED
    assert await pg.append_action("g0", act(1)) is AppendResult.APPENDED
    other = ActionRow(1, "white:0", None, {"n": 99}, 1.0)
    assert await pg.append_action("g0", other) is AppendResult.VERSION_CONFLICT
    assert len(await pg.actions_since("g0", 0)) == 1


async def test_a_value_the_database_refuses_fails_only_its_write(pg: PostgresStore) -> None:
    """A NUL character is refused in PostgreSQL text: the batch's statement fails, and the
    writes run again one by one, so only that one raises."""
    await games(pg, 3)
    results = await asyncio.gather(
        pg.append_action("g0", act(1)),
        pg.append_action("g1", act(1, seat="bad\x00seat")),
        pg.append_action("g2", act(1)),
        return_exceptions=True,
    )
    assert results[0] is AppendResult.APPENDED
    assert isinstance(results[1], asyncpg.PostgresError)
    assert results[2] is AppendResult.APPENDED
    assert await pg.actions_since("g1", 0) == []


async def test_room_updates_in_one_batch_each_check_their_version(pg: PostgresStore) -> None:
    for code in ("A", "B", "C"):
        await pg.create_room(RoomRow(code, "decrypto", {}, 1, True, True, 0.0, 0.0))
    before = pg.room_updates.batches
    results = await asyncio.gather(
        pg.update_room("A", 1, {"x": 1}, public=True, waiting=False, now=1.0),
        pg.update_room("B", 7, {"x": 1}, public=True, waiting=False, now=1.0),  # stale
        pg.update_room("C", 1, {"x": 1}, public=False, waiting=True, now=1.0),
        pg.update_room("A", 2, {"x": 2}, public=True, waiting=False, now=2.0),  # next batch
        pg.update_room("NONE", 1, {}, public=True, waiting=True, now=1.0),
    )
    assert results == [True, False, True, True, False]
    assert pg.room_updates.batches == before + 2
    a, b, c = [await pg.load_room(code) for code in "ABC"]
    assert a is not None and (a.version, a.data) == (3, {"x": 2})
    assert b is not None and (b.version, b.data) == (1, {})
    assert c is not None and (c.version, c.public, c.waiting) == (2, False, True)
