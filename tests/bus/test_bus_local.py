"""The in-process bus: ordered delivery from the event loop, never blocking the publisher."""

from __future__ import annotations

import asyncio

import pytest
from bus_helpers import Inbox, carrying, eventually
from msgspec.structs import force_setattr

from codebreakers.bus import open_bus
from codebreakers.bus.base import MAX_BYTES, Notice
from codebreakers.bus.local import LocalBus

pytestmark = pytest.mark.anyio


def note(i: int) -> Notice:
    return Notice(room="ABCD", room_version=i, game_id="g1", game_version=i, chat_seq=0)


async def test_open_bus_without_url_is_local_and_other_schemes_are_refused() -> None:
    assert isinstance(open_bus(None), LocalBus)
    assert not open_bus(None).shared  # no other node hears it: servers don't publish to it
    assert open_bus("redis://127.0.0.1:6379/0").shared
    with pytest.raises(ValueError, match="unsupported bus URL"):
        open_bus("amqp://broker")


async def test_messages_reach_the_listener_in_order() -> None:
    bus = open_bus(None)
    inbox = Inbox()
    await bus.start(inbox)
    try:
        for i in range(50):
            await bus.publish(note(i))
        await eventually(lambda: len(inbox.messages) == 50)
        assert inbox.messages == [note(i) for i in range(50)]
        assert (bus.stats.published, bus.stats.received, bus.stats.errors) == (50, 50, 0)
        assert bus.healthy
    finally:
        await bus.close()


async def test_publish_returns_before_a_slow_listener_finishes() -> None:
    release = asyncio.Event()
    seen: list[Notice] = []

    async def slow(message: Notice) -> None:
        await release.wait()
        seen.append(message)

    bus = open_bus(None)
    await bus.start(slow)
    try:
        async with asyncio.timeout(1.0):
            await bus.publish(note(1))
            await bus.publish(note(2))
        assert seen == []
        release.set()
        await eventually(lambda: len(seen) == 2)
    finally:
        await bus.close()


async def test_a_failing_listener_is_counted_and_delivery_goes_on() -> None:
    seen: list[int] = []

    async def picky(message: Notice) -> None:
        if message.room_version == 2:
            raise RuntimeError("listener bug")
        seen.append(message.room_version)

    bus = open_bus(None)
    await bus.start(picky)
    try:
        for i in (1, 2, 3):
            await bus.publish(note(i))
        await eventually(lambda: seen == [1, 3])
        assert bus.stats.errors == 1
    finally:
        await bus.close()


async def test_a_message_json_cannot_carry_is_refused_like_redis_would() -> None:
    bus = open_bus(None)
    await bus.start(Inbox())
    try:
        with pytest.raises(TypeError):
            await bus.publish(Notice(room=object()))  # type: ignore[arg-type]
        assert bus.stats.published == 0
    finally:
        await bus.close()


async def test_delivered_messages_are_copies() -> None:
    bus = open_bus(None)
    inbox = Inbox()
    await bus.start(inbox)
    try:
        sent = note(1)
        await bus.publish(sent)
        force_setattr(sent, "room", "CHANGED")  # frozen: only by force
        await eventually(lambda: len(inbox.messages) == 1)
        assert inbox.messages[0].room == "ABCD"
    finally:
        await bus.close()


async def test_what_a_notice_carries_arrives_whole_or_not_at_all() -> None:
    bus = open_bus(None)
    inbox = Inbox()
    await bus.start(inbox)
    try:
        carried, oversized = carrying("ABCD", 1), carrying("ABCD", 2, "y" * MAX_BYTES)
        await bus.publish(carried)
        await bus.publish(oversized)
        await eventually(lambda: len(inbox.messages) == 2)
        assert inbox.messages == [carried, oversized.bare()]
        assert inbox.messages[0].carries and not inbox.messages[1].carries
        assert bus.stats.errors == 0
    finally:
        await bus.close()
