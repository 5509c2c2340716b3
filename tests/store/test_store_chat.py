"""Chat: per-room sequence numbers and catch-up reads."""

from __future__ import annotations

import pytest

from codebreakers.store.base import ChatLine, RoomRow, Store

pytestmark = pytest.mark.anyio


async def rooms(store: Store, *codes: str) -> None:
    for code in codes:
        await store.create_room(RoomRow(code, "decrypto", {}, 1, True, True, 1.0, 1.0))


async def test_lines_number_from_one_per_room(store: Store) -> None:
    await rooms(store, "AAAA", "BBBB")
    a1 = await store.append_chat("AAAA", None, "all", None, "Ana", "salut", 1.0)
    a2 = await store.append_chat("AAAA", None, "team:white", "white:0", "Ana", "привет", 2.0)
    b1 = await store.append_chat("BBBB", None, "all", "black:1", "Bo", "안녕", 3.0)
    assert a1 == ChatLine(1, "AAAA", None, "all", None, "Ana", "salut", 1.0)
    assert a2 == ChatLine(2, "AAAA", None, "team:white", "white:0", "Ana", "привет", 2.0)
    assert b1.seq == 1
    assert await store.chat_since("AAAA", 0) == [a1, a2]
    assert await store.chat_since("AAAA", 1) == [a2]
    assert await store.chat_since("BBBB", 0) == [b1]


async def test_chat_since_honours_the_limit(store: Store) -> None:
    await rooms(store, "AAAA")
    for i in range(7):
        await store.append_chat("AAAA", None, "all", None, "n", f"line {i}", float(i))
    page = await store.chat_since("AAAA", 2, limit=3)
    assert [line.seq for line in page] == [3, 4, 5]


async def test_chat_of_a_game_leaves_out_other_games_and_the_lobby(store: Store) -> None:
    await rooms(store, "AAAA")
    await store.create_game("g1", "AAAA", "decrypto", {}, 1.0)
    await store.create_game("g2", "AAAA", "decrypto", {}, 1.0)
    await store.append_chat("AAAA", None, "all", None, "n", "before", 1.0)
    in_g1 = await store.append_chat("AAAA", "g1", "all", None, "n", "during", 2.0)
    await store.append_chat("AAAA", "g2", "all", None, "n", "next game", 3.0)
    assert await store.chat_of_game("g1") == [in_g1]


async def test_chat_in_an_unknown_room_is_an_error(store: Store) -> None:
    with pytest.raises(LookupError):
        await store.append_chat("NONE", None, "all", None, "n", "hello?", 1.0)


async def test_a_retried_message_id_is_stored_once_and_answered_with_the_first_line(
    store: Store,
) -> None:
    await rooms(store, "AAAA")
    first = await store.append_chat("AAAA", None, "all", "w0", "Ana", "hi", 1.0, "m-1")
    other_seat = await store.append_chat("AAAA", None, "all", "w1", "Bo", "hi", 2.0, "m-1")
    retried = await store.append_chat("AAAA", None, "all", "w0", "Ana", "hi", 3.0, "m-1")
    assert retried == first
    assert other_seat.seq == 2
    assert [line.seq for line in await store.chat_since("AAAA", 0)] == [1, 2]
