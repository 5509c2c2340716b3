"""Profiles (migration 0005): identities known by a browser's secret hash, passkeys, who played
each game, the rooms and games of a profile, and the profile of a chat line, on both adapters."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from codebreakers.store.base import (
    GamePlayer,
    PasskeyRow,
    ProfileGame,
    ProfileRow,
    RoomRow,
    Store,
)

pytestmark = pytest.mark.anyio
# What each adapter raises for a broken key (nothing stored)
REFUSED = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

ANA = ProfileRow("pr-ana", "Ana", "fr", 10.0)
BO = ProfileRow("pr-bo", "Бо", "ru", 11.0, hidden=True)


async def room(store: Store, code: str, waiting: bool = True) -> None:
    await store.create_room(RoomRow(code, "decrypto", {"x": 1}, 1, False, waiting, 1.0, 1.0))


async def test_a_profile_is_found_by_its_secret_hash_and_its_id(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    await store.create_profile(BO, "hash-bo")
    assert await store.profile_by_secret("hash-ana") == ANA
    assert await store.profile_by_secret("hash-bo") == BO
    assert await store.load_profile("pr-bo") == BO
    assert await store.profile_by_secret("nope") is None
    assert await store.load_profile("nope") is None


async def test_an_existing_id_or_secret_hash_is_refused(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    with pytest.raises(REFUSED):
        await store.create_profile(ProfileRow("pr-other", "X", "en", 1.0), "hash-ana")
    with pytest.raises(REFUSED):
        await store.create_profile(ANA, "hash-new")
    assert await store.load_profile("pr-other") is None
    assert await store.profile_by_secret("hash-new") is None


async def test_update_changes_name_language_and_hidden(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    assert await store.update_profile("pr-ana", name="Anna", language="ko", hidden=True)
    assert await store.load_profile("pr-ana") == ProfileRow("pr-ana", "Anna", "ko", 10.0, True)
    assert not await store.update_profile("nope", name="x", language="en", hidden=False)


async def test_a_device_signed_in_later_finds_the_profile_and_sign_out_forgets_one(
    store: Store,
) -> None:
    await store.create_profile(ANA, "hash-ana")
    await store.add_device("pr-ana", "hash-phone", 20.0)
    assert await store.profile_by_secret("hash-phone") == ANA
    await store.forget_secret("hash-phone")
    assert await store.profile_by_secret("hash-phone") is None
    assert await store.profile_by_secret("hash-ana") == ANA
    await store.forget_secret("hash-ana")
    assert await store.profile_by_secret("hash-ana") is None
    assert await store.load_profile("pr-ana") == ANA  # the profile stays


async def test_passkeys_are_stored_found_and_counted(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    key = PasskeyRow("cred-1", "pr-ana", b"\x00\xffcose", 0, ["internal", "hybrid"], 30.0)
    assert await store.add_passkey(key)
    assert not await store.add_passkey(key)  # one credential, once
    assert await store.find_passkey("cred-1") == key
    assert await store.find_passkey("cred-2") is None
    assert await store.use_passkey("cred-1", 5, 40.0)
    assert not await store.use_passkey("cred-2", 5, 40.0)
    used = await store.find_passkey("cred-1")
    assert used is not None and (used.sign_count, used.last_used_at) == (5, 40.0)
    second = PasskeyRow("cred-0", "pr-ana", b"k", 0, [], 31.0)
    assert await store.add_passkey(second)
    assert [k.credential_id for k in await store.passkeys_of("pr-ana")] == ["cred-1", "cred-0"]
    assert await store.passkeys_of("pr-bo") == []


async def test_create_game_records_its_players_and_the_finished_ones_are_listed(
    store: Store,
) -> None:
    await store.create_profile(ANA, "hash-ana")
    await store.create_profile(BO, "hash-bo")
    await room(store, "AAAA")
    players = [
        GamePlayer("p1", "p1", "white", True, "Ana", "pr-ana"),
        GamePlayer("p2", "p2", "white", False, "Bot", None),
        GamePlayer("p3", "p3", "black", True, "Бо", "pr-bo"),
    ]
    await store.create_game("g1", "AAAA", "decrypto", {"s": 1}, 5.0, players)
    await store.create_game("g2", "AAAA", "decrypto", {"s": 2}, 6.0, players[:1])
    await store.create_game("g3", "AAAA", "decrypto", {"s": 3}, 7.0, players[:1])
    assert await store.finished_games_of("pr-ana", 10) == []  # none is over yet
    await store.finish_game("g1", {"winner": "white"})
    await store.finish_game("g3", {"winner": "black"})
    assert await store.finished_games_of("pr-ana", 10) == [
        ProfileGame("g3", "AAAA", "decrypto", 7.0, {"winner": "black"}, "p1", "white"),
        ProfileGame("g1", "AAAA", "decrypto", 5.0, {"winner": "white"}, "p1", "white"),
    ]
    assert [g.game_id for g in await store.finished_games_of("pr-ana", 1)] == ["g3"]
    assert [(g.game_id, g.side) for g in await store.finished_games_of("pr-bo", 10)] == [
        ("g1", "black")
    ]


async def test_a_game_whose_players_cannot_be_stored_is_not_stored(store: Store) -> None:
    await room(store, "AAAA")
    twice = [GamePlayer("p1", "p1", "white", True, "A"), GamePlayer("p1", "p1", "black", True, "B")]
    with pytest.raises(REFUSED):
        await store.create_game("g1", "AAAA", "decrypto", {}, 5.0, twice)
    assert await store.load_game("g1") is None  # one transaction: the game went too


async def test_rooms_of_a_profile_newest_join_first(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    await store.create_profile(BO, "hash-bo")
    await room(store, "AAAA")
    await room(store, "BBBB", waiting=False)
    await store.join_room("AAAA", "p1", "pr-ana", 1.0)
    await store.join_room("BBBB", "p4", "pr-ana", 2.0)
    await store.join_room("BBBB", "p4", "pr-ana", 9.0)  # again: kept as it was
    await store.join_room("AAAA", "p2", "pr-bo", 3.0)
    mine = await store.rooms_of("pr-ana", 10)
    assert [(r.room.code, r.player_id, r.joined_at) for r in mine] == [
        ("BBBB", "p4", 2.0),
        ("AAAA", "p1", 1.0),
    ]
    assert mine[1].room.data == {"x": 1} and not mine[0].room.waiting
    assert [r.room.code for r in await store.rooms_of("pr-ana", 1)] == ["BBBB"]
    assert [r.player_id for r in await store.rooms_of("pr-bo", 10)] == ["p2"]


async def test_a_chat_line_keeps_its_profile(store: Store) -> None:
    await store.create_profile(ANA, "hash-ana")
    await room(store, "AAAA")
    line = await store.append_chat("AAAA", None, "all", "p1", "Ana", "hi", 1.0, "c1", "pr-ana")
    anon = await store.append_chat("AAAA", None, "all", "p2", "Zed", "yo", 2.0)
    assert line.profile_id == "pr-ana" and anon.profile_id is None
    assert await store.chat_since("AAAA", 0) == [line, anon]
    assert await store.find_chat("AAAA", "p1", "c1") == line
