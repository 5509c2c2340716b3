"""The Redis bus against the real Redis: fan-out between nodes, and surviving lost connections.

Each test uses its own channel and client names, so parallel tests (and other suites using
Redis) never see each other's messages or lose their connections to our CLIENT KILL.
"""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from bus_helpers import FreezableProxy, Inbox, carrying, eventually
from redis.asyncio import Redis
from sqlalchemy.engine import make_url

from codebreakers.bus import open_bus
from codebreakers.bus.base import MAX_BYTES, Notice
from codebreakers.bus.mailbox import encode
from codebreakers.bus.redis import CHANNEL, RedisBus

pytestmark = [pytest.mark.anyio, pytest.mark.redis]


def note(room: str, i: int) -> Notice:
    return Notice(room=room, room_version=i, game_id=None, game_version=0, chat_seq=0)


@pytest.fixture
def channel() -> str:
    return f"codebreakers:test:{uuid.uuid4().hex}"


@pytest.fixture
async def make_bus(redis_url: str, channel: str) -> AsyncIterator[Callable[..., RedisBus]]:
    made: list[RedisBus] = []

    def make(url: str = redis_url, **options: Any) -> RedisBus:
        options.setdefault("name", f"cb-test-{uuid.uuid4().hex[:12]}")
        bus = RedisBus(url, channel=channel, **options)
        made.append(bus)
        return bus

    yield make
    for bus in made:
        await bus.close()


@pytest.fixture
async def admin(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    yield client
    await client.aclose()


def test_open_bus_picks_redis_for_redis_urls() -> None:
    bus = open_bus("redis://127.0.0.1:6379/0")
    assert isinstance(bus, RedisBus)
    assert CHANNEL == "codebreakers:rooms"


async def test_two_nodes_hear_each_other_and_themselves(make_bus: Callable[..., RedisBus]) -> None:
    one, two = make_bus(), make_bus()
    heard_by_one, heard_by_two = Inbox(), Inbox()
    await one.start(heard_by_one)
    await two.start(heard_by_two)
    assert one.healthy and two.healthy

    for i in range(5):
        await one.publish(note("ONE", i))
        await two.publish(note("TWO", i))
    everything = sorted([note("ONE", i) for i in range(5)] + [note("TWO", i) for i in range(5)],
                        key=str)  # fmt: skip
    for inbox in (heard_by_one, heard_by_two):
        await eventually(lambda inbox=inbox: len(inbox.messages) == 10)
        assert sorted(inbox.messages, key=str) == everything
        # Each node's own messages arrive in the order it sent them.
        assert [m.room_version for m in inbox.messages if m.room == "ONE"] == list(range(5))
    await eventually(lambda: one.stats.published == 5)  # counted once Redis has answered
    assert (one.stats.received, one.stats.errors) == (10, 0)


async def test_a_killed_subscription_comes_back_and_hears_later_messages(
    make_bus: Callable[..., RedisBus], admin: Redis
) -> None:
    listener = make_bus(backoff=(0.6, 1.0))  # slow enough to watch it being unhealthy
    speaker = make_bus()
    inbox = Inbox()
    await listener.start(inbox)
    await speaker.start(Inbox())
    await speaker.publish(note("R", 1))
    await eventually(lambda: len(inbox.messages) == 1)

    name = listener.name
    killed = [c for c in await admin.client_list(_type="pubsub") if c["name"] == name]
    assert len(killed) == 1
    await admin.client_kill_filter(_id=killed[0]["id"])

    await eventually(lambda: not listener.healthy)
    await eventually(lambda: listener.healthy)
    assert listener.stats.reconnects == 1
    await speaker.publish(note("R", 2))
    await eventually(lambda: len(inbox.messages) == 2)
    assert inbox.messages[-1] == note("R", 2)


async def test_publishing_survives_its_connection_being_killed(
    make_bus: Callable[..., RedisBus], admin: Redis
) -> None:
    bus = make_bus()
    inbox = Inbox()
    await bus.start(inbox)
    await bus.publish(note("R", 1))
    await eventually(lambda: len(inbox.messages) == 1)
    publishers = [c for c in await admin.client_list(_type="normal") if c["name"] == bus.name]
    assert len(publishers) == 1
    await admin.client_kill_filter(_id=publishers[0]["id"])
    await bus.publish(note("R", 2))
    await eventually(lambda: len(inbox.messages) == 2)
    await eventually(lambda: bus.stats.published == 2)
    assert bus.stats.errors == 0


async def test_without_redis_nothing_raises_and_this_node_still_hears_itself(
    make_bus: Callable[..., RedisBus],
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bus = make_bus(f"redis://127.0.0.1:{port}/0", backoff=(0.05, 0.1))
    inbox = Inbox()
    await bus.start(inbox)
    assert not bus.healthy
    for i in range(30):
        await bus.publish(note("R", i))
    # Heard here at once, not after 30 attempts to reach Redis.
    await eventually(lambda: len(inbox.messages) == 30, timeout=1.0)
    assert inbox.messages == [note("R", i) for i in range(30)]
    assert bus.stats.errors == 30 and bus.stats.published == 0
    await eventually(lambda: bus.stats.reconnects >= 2)
    assert not bus.healthy


async def test_a_silent_network_is_noticed_by_pings_and_recovered(
    make_bus: Callable[..., RedisBus], redis_url: str
) -> None:
    parsed = make_url(redis_url)
    proxy = FreezableProxy(parsed.port or 6379)
    port = await proxy.start()
    try:
        url = f"redis://127.0.0.1:{port}/{parsed.database or 0}"
        listener = make_bus(url, ping_interval=0.2, connect_timeout=0.5, backoff=(0.05, 0.2))
        speaker = make_bus()
        inbox, heard_by_speaker = Inbox(), Inbox()
        await listener.start(inbox)
        await speaker.start(heard_by_speaker)
        assert listener.healthy

        proxy.frozen = True
        await eventually(lambda: not listener.healthy)
        await speaker.publish(note("R", 1))  # lost: pub/sub is at-most-once
        await listener.publish(note("L", 1))  # can't reach Redis: heard by this node only
        await eventually(lambda: note("L", 1) in inbox.messages, timeout=10.0)
        assert listener.stats.errors >= 1
        # Reconnecting into the silence times out and tries again, rather than hanging.
        await eventually(lambda: listener.stats.reconnects >= 3, timeout=10.0)

        proxy.frozen = False
        await eventually(lambda: listener.healthy, timeout=10.0)
        await speaker.publish(note("R", 2))
        await eventually(lambda: note("R", 2) in inbox.messages)
        assert note("R", 1) not in inbox.messages
        assert listener.stats.reconnects >= 1
        # Publishing recovers by itself too: the other node hears this one again.
        published = listener.stats.published
        i = 1
        while listener.stats.published == published:
            i += 1
            await listener.publish(note("L", i))
            await asyncio.sleep(0.05)
            assert i < 200, "publishing never recovered"
        await eventually(lambda: note("L", i) in heard_by_speaker.messages)
    finally:
        await proxy.close()


async def test_a_server_that_accepts_but_never_answers_does_not_hang_start(
    make_bus: Callable[..., RedisBus], redis_url: str
) -> None:
    parsed = make_url(redis_url)
    proxy = FreezableProxy(parsed.port or 6379)
    port = await proxy.start()
    try:
        proxy.frozen = True  # connections are accepted, the handshake is never answered
        bus = make_bus(f"redis://127.0.0.1:{port}/{parsed.database or 0}", connect_timeout=0.3,
                       backoff=(0.05, 0.1))  # fmt: skip
        inbox = Inbox()
        async with asyncio.timeout(5.0):
            await bus.start(inbox)
        assert not bus.healthy
        await eventually(lambda: bus.stats.reconnects >= 2)
        proxy.frozen = False
        await eventually(lambda: bus.healthy, timeout=10.0)
        await bus.publish(note("R", 1))
        await eventually(lambda: note("R", 1) in inbox.messages, timeout=10.0)
    finally:
        await proxy.close()


async def test_foreign_garbage_on_the_channel_is_counted_and_skipped(
    make_bus: Callable[..., RedisBus], admin: Redis, channel: str
) -> None:
    bus = make_bus()
    inbox = Inbox()
    await bus.start(inbox)
    await admin.publish(channel, b"not json")
    await admin.publish(channel, b"[1, 2]")
    await bus.publish(note("R", 1))
    await eventually(lambda: len(inbox.messages) == 1)
    assert bus.stats.errors == 2


async def test_what_a_notice_carries_crosses_redis_bounded(
    make_bus: Callable[..., RedisBus], admin: Redis, channel: str
) -> None:
    """Between two nodes: a carried notice arrives whole; one over the bound, or one whose
    carried part is mistyped (published by hand), arrives as its bare versions."""
    one, two = make_bus(), make_bus()
    heard = Inbox()
    await one.start(Inbox())
    await two.start(heard)
    carried, oversized = carrying("ROOM", 1), carrying("ROOM", 2, "y" * MAX_BYTES)
    await one.publish(carried)
    await one.publish(oversized)
    await eventually(lambda: len(heard.messages) == 2)
    mistyped = encode(carrying("ROOM", 3)).replace(b'"version":3', b'"version":"three"')
    assert mistyped != encode(carrying("ROOM", 3))
    await admin.publish(channel, mistyped)
    await admin.publish(channel, b"x" * (MAX_BYTES + 1))  # not even versions: skipped
    await eventually(lambda: len(heard.messages) == 3 and two.stats.errors == 1)
    assert heard.messages == [carried, oversized.bare(), carrying("ROOM", 3).bare()]
