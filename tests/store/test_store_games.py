"""Games: the append-only action log and its version check."""

from __future__ import annotations

import pytest

from codebreakers.store.base import ActionRow, AppendResult, RoomHead, RoomRow, Store

pytestmark = pytest.mark.anyio

SETUP = {"seed": 12345, "teams": ["white", "black"], "words": ["лес", "바다", "été"]}


def act(version: int, seat: str = "white:0", cid: str | None = None) -> ActionRow:
    return ActionRow(
        version=version,
        seat=seat,
        client_action_id=cid,
        action={"type": "clue", "clues": ["a", "b", f"v{version}"]},
        at=100.0 + version,
    )


async def new_game(store: Store, game_id: str = "g1", room_code: str = "ROOM") -> None:
    if await store.load_room(room_code) is None:
        await store.create_room(RoomRow(room_code, "decrypto", {}, 1, True, True, 1.0, 1.0))
    await store.create_game(game_id, room_code, "decrypto", SETUP, 2.0)


async def test_new_game_has_setup_and_no_actions(store: Store) -> None:
    await new_game(store)
    game = await store.load_game("g1")
    assert game is not None
    assert (game.id, game.room_code, game.game, game.setup) == ("g1", "ROOM", "decrypto", SETUP)
    assert (game.created_at, game.over, game.outcome, game.actions) == (2.0, False, None, [])
    assert await store.load_game("nope") is None


async def test_actions_append_in_version_order(store: Store) -> None:
    await new_game(store)
    for v in range(1, 6):
        assert await store.append_action("g1", act(v, cid=f"c{v}")) is AppendResult.APPENDED
    game = await store.load_game("g1")
    assert game is not None
    assert game.actions == [act(v, cid=f"c{v}") for v in range(1, 6)]
    assert await store.actions_since("g1", 3) == [act(4, cid="c4"), act(5, cid="c5")]
    assert await store.actions_since("g1", 5) == []
    assert await store.actions_since("g1", 0) == game.actions


async def test_a_taken_or_skipped_version_is_a_conflict(store: Store) -> None:
    await new_game(store)
    assert await store.append_action("g1", act(1)) is AppendResult.APPENDED
    assert await store.append_action("g1", act(1, seat="black:0")) is AppendResult.VERSION_CONFLICT
    assert await store.append_action("g1", act(3)) is AppendResult.VERSION_CONFLICT
    assert await store.append_action("g1", act(0)) is AppendResult.VERSION_CONFLICT
    game = await store.load_game("g1")
    assert game is not None and game.actions == [act(1)]


async def test_first_action_must_be_version_one(store: Store) -> None:
    await new_game(store)
    assert await store.append_action("g1", act(2)) is AppendResult.VERSION_CONFLICT


async def test_a_retried_client_action_is_a_duplicate_even_at_a_new_version(store: Store) -> None:
    await new_game(store)
    assert await store.append_action("g1", act(1, cid="x")) is AppendResult.APPENDED
    assert await store.append_action("g1", act(2, cid="x")) is AppendResult.DUPLICATE
    assert await store.append_action("g1", act(1, cid="x")) is AppendResult.DUPLICATE
    # The id is per seat and per game.
    assert await store.append_action("g1", act(2, "black:0", cid="x")) is AppendResult.APPENDED
    await new_game(store, "g2")
    assert await store.append_action("g2", act(1, cid="x")) is AppendResult.APPENDED


async def test_actions_without_client_id_never_count_as_duplicates(store: Store) -> None:
    await new_game(store)
    assert await store.append_action("g1", act(1)) is AppendResult.APPENDED
    assert await store.append_action("g1", act(2)) is AppendResult.APPENDED


async def test_find_action_by_client_id(store: Store) -> None:
    await new_game(store)
    await store.append_action("g1", act(1, cid="abc"))
    assert await store.find_action("g1", "white:0", "abc") == act(1, cid="abc")
    assert await store.find_action("g1", "black:0", "abc") is None
    assert await store.find_action("g1", "white:0", "zzz") is None


async def test_appending_to_an_unknown_game_is_an_error_not_a_conflict(store: Store) -> None:
    with pytest.raises(LookupError):
        await store.append_action("ghost", act(1))


async def test_live_games_until_finished(store: Store) -> None:
    await new_game(store, "g1")
    await new_game(store, "g2")
    await new_game(store, "g3")
    assert await store.live_games() == ["g1", "g2", "g3"]
    outcome = {"winner": "black", "reason": "two_interceptions"}
    await store.finish_game("g2", outcome)
    assert await store.live_games() == ["g1", "g3"]
    game = await store.load_game("g2")
    assert game is not None and game.over and game.outcome == outcome
    with pytest.raises(LookupError):
        await store.finish_game("ghost", outcome)


async def test_a_room_head_gives_every_version_in_one_read(store: Store) -> None:
    assert await store.room_head("NONE", None) is None
    await new_game(store)
    await new_game(store, "g2")
    assert await store.room_head("ROOM", "g1") == RoomHead(1, 0, 0)
    for version in (1, 2, 3):
        await store.append_action("g1", act(version))
    await store.append_action("g2", act(1))
    await store.append_chat("ROOM", "g1", "all", None, "Ann", "hi", 5.0)
    await store.update_room("ROOM", 1, {"x": 1}, public=True, waiting=False, now=6.0)
    assert await store.room_head("ROOM", "g1") == RoomHead(2, 3, 1)
    assert await store.room_head("ROOM", None) == RoomHead(2, 0, 1)
