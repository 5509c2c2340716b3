"""Rooms: unique codes, optimistic updates, the lobby listing."""

from __future__ import annotations

import pytest

from codebreakers.store.base import RoomRow, Store

pytestmark = pytest.mark.anyio


def room(code: str, *, public: bool = True, waiting: bool = True, at: float = 1.0) -> RoomRow:
    return RoomRow(
        code=code,
        game="decrypto",
        data={"seats": {"red": ["Ana"]}, "name": "Émilie's 방"},
        version=1,
        public=public,
        waiting=waiting,
        created_at=at,
        updated_at=at,
    )


async def test_created_room_loads_back_equal(store: Store) -> None:
    assert await store.create_room(room("AAAA"))
    assert await store.load_room("AAAA") == room("AAAA")
    assert await store.load_room("ZZZZ") is None


async def test_taken_code_is_refused_and_keeps_the_first_room(store: Store) -> None:
    assert await store.create_room(room("AAAA"))
    other = RoomRow("AAAA", "mastermind", {}, 7, False, False, 2.0, 2.0)
    assert not await store.create_room(other)
    assert await store.load_room("AAAA") == room("AAAA")


async def test_update_needs_the_current_version_and_bumps_it(store: Store) -> None:
    await store.create_room(room("AAAA"))
    assert await store.update_room("AAAA", 1, {"seats": {}}, public=False, waiting=False, now=5.0)
    updated = await store.load_room("AAAA")
    assert updated == RoomRow("AAAA", "decrypto", {"seats": {}}, 2, False, False, 1.0, 5.0)
    # A writer that read version 1 lost the race and changes nothing.
    assert not await store.update_room(
        "AAAA", 1, {"stale": True}, public=True, waiting=True, now=6.0
    )
    assert await store.load_room("AAAA") == updated
    assert not await store.update_room("NONE", 1, {}, public=True, waiting=True, now=6.0)


async def test_lobby_lists_matching_rooms_newest_first_up_to_the_limit(store: Store) -> None:
    for i in range(5):
        await store.create_room(room(f"P{i}", at=float(i)))
    await store.create_room(room("PRIV", public=False, at=10.0))
    await store.create_room(room("PLAY", waiting=False, at=11.0))

    listed = await store.list_rooms(public=True, waiting=True, limit=3)
    assert [r.code for r in listed] == ["P4", "P3", "P2"]
    assert [r.code for r in await store.list_rooms(public=False, waiting=True, limit=9)] == ["PRIV"]
    assert [r.code for r in await store.list_rooms(public=True, waiting=False, limit=9)] == ["PLAY"]
    await store.update_room("P0", 1, {}, public=True, waiting=True, now=20.0)
    assert (await store.list_rooms(public=True, waiting=True, limit=1))[0].code == "P0"
