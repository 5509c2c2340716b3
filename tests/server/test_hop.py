"""The hop between nodes: a node takes another node's changes from the bus notices that carry
them, reads the store only when they don't go on from what it holds, and whatever it is fed
(out of order, twice, with gaps, forged, oversized) ends on the store's state.

Node A is a real `Node` whose scripted bots play a whole Decrypto game for a watching host; its
bus keeps what A publishes. The followers are hubs of a second node's store, loaded before the
game began, each fed A's notices through the bus's own codec in its own order.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest
from server_harness import make_scripted

from codebreakers.bus.base import (
    MAX_BYTES,
    CarriedAction,
    CarriedLine,
    Listener,
    Notice,
)
from codebreakers.bus.local import LocalBus
from codebreakers.bus.mailbox import decode, encode
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.cluster.node import Node
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.server.play.runner import GameRunner
from codebreakers.server.rooms import carried, document, model
from codebreakers.server.rooms.carried import Took
from codebreakers.server.rooms.hub import RoomHub
from codebreakers.server.wire.messages import Hello
from codebreakers.store import open_store
from codebreakers.store.base import RoomRow, Store

pytestmark = pytest.mark.anyio
CONFIG = ServerConfig(bot_delay_s=0)
FOLLOWERS = 9  # one per forgery


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class KeptBus(LocalBus):
    """A shared bus that keeps what its node publishes and hands it, through the embedded
    bus's own mailbox, to another node's hub (`feed`), not to its own node (`start`)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Notice] = []

    def feed(self, listener: Listener) -> None:
        self._mailbox.start(listener)

    async def start(self, listener: Listener) -> None:
        pass

    async def publish(self, notice: Notice) -> None:
        self.sent.append(notice)
        await super().publish(notice)

    @property
    def shared(self) -> bool:
        return True


class Watcher:
    """A socket that keeps its frames."""

    def __init__(self) -> None:
        self.room: str | None = None
        self.player: str | None = None
        self.frames: list[bytes] = []

    def push(self, text: bytes) -> None:
        self.frames.append(text)

    def close_soon(self) -> None:
        pass

    def last(self, kind: str) -> dict[str, Any]:
        return next(f for f in map(msgspec.json.decode, reversed(self.frames)) if f["type"] == kind)


@dataclass
class Played:
    """A game A played, the notices it published, and followers loaded before it began."""

    store: Store  # the followers' store (the same database as A's)
    code: str
    notices: list[Notice]
    host: Watcher  # A's watching host
    live: tuple[RoomHub, Watcher, list[Took]]  # fed through the bus as A played
    followers: list[tuple[RoomHub, Watcher]]  # fed by the test


async def say(hub: RoomHub, conn: Watcher, n: int) -> None:
    await hub.say(conn, f"c{n}", "all", f"line {n}")
    await hub.publish()


@pytest.fixture
async def played(tmp_path: Path) -> AsyncIterator[Played]:
    db = f"sqlite:///{tmp_path / 'shared.db'}"
    bus = KeptBus()
    ports = Ports(open_store(db), bus, RULES_BY_NAME, make_scripted, frozenset({"decrypto"}))
    node = Node(ports, CONFIG)
    store = open_store(db)
    await node.start()
    await store.open()
    try:
        hub = await node.create_room("decrypto", {}, False, "http://test")
        row = await store.load_room(hub.code)
        assert row is not None
        followers = [await follower(store, row) for _ in range(FOLLOWERS)]
        live, live_conn = await follower(store, row)
        took: list[Took] = []

        async def listener(notice: Notice) -> None:
            took.append(await live.on_notice(notice))

        bus.feed(listener)
        host = Watcher()
        await hub.attach(host, Hello(hub.code))
        await hub.join(host, "j", "Host")
        await hub.publish()
        await hub.room_op(host, "l", lambda room, actor: document.leave_seat(room, actor, "l"))
        await hub.publish()
        for i, (team, index) in enumerate((t, i) for t in ("white", "black") for i in (0, 1)):
            await hub.room_op(
                host,
                f"b{i}",
                lambda room, actor, t=team, x=index, n=i: document.add_bot(
                    room, actor, t, x, "easy", f"b{n}"
                )[0],
            )
            await hub.publish()
        await say(hub, host, 1)
        await say(hub, host, 2)
        await hub.begin(host, "s", rematch=False)
        await hub.publish()
        said = 2
        while hub.data.status is not model.RoomStatus.OVER:  # the bots play; the host chats
            await asyncio.sleep(0.01)
            if said < 6 and hub.runner is not None and hub.runner.version > 4 * said:
                said += 1
                await say(hub, host, said)
        await asyncio.sleep(0.05)  # the bots' last publish
        await say(hub, host, said + 1)
        while len(took) < len(bus.sent):
            await asyncio.sleep(0.01)
        yield Played(store, hub.code, bus.sent, host, (live, live_conn, took), followers)
    finally:
        await node.close()
        await store.close()


async def follower(store: Store, row: RoomRow) -> tuple[RoomHub, Watcher]:
    """A hub on the second node as it loaded the room, with a newcomer's socket attached."""
    ports = Ports(store, KeptBus(), RULES_BY_NAME)
    hub = RoomHub(ports, CONFIG, row)
    await hub.load()
    conn = Watcher()
    await hub.attach(conn, Hello(row.code))
    return hub, conn


def offline(frame: dict[str, Any]) -> dict[str, Any]:
    """A room frame without who is online (each node knows its own sockets only)."""
    room = frame["room"]
    return {**room, "players": [{**p, "connected": None} for p in room["players"]]}


def wire(notice: Notice) -> Notice:
    """The notice as another node's bus hands it over."""
    return decode(encode(notice))


async def assert_on_store(played: Played, hub: RoomHub, conn: Watcher) -> None:
    """The hub holds what the store holds, and its socket was pushed what A's host was."""
    store = played.store
    row = await store.load_room(played.code)
    assert row is not None
    assert (hub.version, hub.data) == (row.version, model.load(row.data))
    assert hub.data.game_id is not None and hub.runner is not None
    game = await store.load_game(hub.data.game_id)
    assert game is not None
    fresh = GameRunner.from_row(hub.rules, game)
    seats: list[str | None] = [None, *sorted(fresh.seats())]
    assert hub.runner.version == fresh.version
    assert hub.runner.views_json(seats, False) == fresh.views_json(seats, False)
    lines = await store.chat_since(played.code, 0)
    assert hub.chat_seq == lines[-1].seq
    # Same fan-out as on A: the watching host (a spectator there) and the newcomer here.
    assert conn.last("view") == played.host.last("view")
    assert offline(conn.last("room")) == offline(played.host.last("room"))
    seen = {
        line["seq"]
        for f in map(msgspec.json.decode, conn.frames)
        if f["type"] == "chat"
        for line in f["lines"]
    }
    assert seen == {line.seq for line in lines}
    assert not any(b"token_hash" in frame for frame in conn.frames)


async def test_in_order_every_change_hops_without_a_store_read(played: Played) -> None:
    hub, conn, took = played.live
    assert len(took) > 20
    # One read only: the game the room names once it starts (its setup is not carried).
    assert took.count(Took.STORE) == 1, took
    assert took.count(Took.CARRIED) == len(took) - 1 - took.count(Took.NOTHING)
    assert took.count(Took.NOTHING) < 3
    await assert_on_store(played, hub, conn)


async def test_twice_each_the_second_brings_nothing(played: Played) -> None:
    hub, conn = played.followers[0]
    for notice in played.notices:
        first = await hub.on_notice(wire(notice))
        assert await hub.on_notice(wire(notice)) is Took.NOTHING, first
    await assert_on_store(played, hub, conn)


async def test_a_gap_reads_the_store_then_the_rest_is_old_news(played: Played) -> None:
    hub, conn = played.followers[0]
    notices = played.notices
    # Lose a notice of one action between two others (the next one's row comes after a gap).
    half = next(
        i
        for i in range(len(notices) // 2, len(notices) - 1)
        if notices[i + 1].game_version == notices[i].game_version + 1 > 2
        and notices[i + 1].chat_seq == notices[i].chat_seq
    )
    for notice in notices[:half]:
        await hub.on_notice(wire(notice))
    assert await hub.on_notice(wire(notices[half + 1])) is Took.STORE
    # What the store gave is old news; what it wasn't asked for comes carried.
    assert Took.STORE not in {await hub.on_notice(wire(n)) for n in notices[half:]}
    await assert_on_store(played, hub, conn)


def forgeries(hub: RoomHub) -> list[bytes]:
    """Messages that claim to go on exactly from what `hub` holds, each wrong in one way."""
    runner = hub.runner
    nxt = Notice(
        hub.code,
        hub.version,
        runner.game_id if runner else None,
        runner.version if runner else 0,
        hub.chat_seq,
    )
    seat = sorted(runner.seats())[0] if runner else "p1"
    gv, cs = nxt.game_version + 1, nxt.chat_seq + 1
    refused = CarriedAction(gv, seat, "x", {"type": "nonsense"}, 0.0)
    line = CarriedLine(cs, None, "all", None, "Forger", "forged", 0.0)
    rules = RULES_BY_NAME["mastermind"]
    options = rules.check_options({})
    assert isinstance(options, dict)
    other = document.new_room("mastermind", options, rules.team_sizes(options), False, "x")
    step = msgspec.structs.replace
    return [
        encode(step(nxt, game_version=gv, actions=(refused,))),  # the rules refuse it
        encode(step(nxt, game_version=gv, actions=(step(refused, seat="nobody"),))),
        encode(step(nxt, game_version=gv + 1, actions=(step(refused, version=gv + 1),))),
        encode(step(nxt, room_version=nxt.room_version + 1, room_data=msgspec.Raw(b"[1]"))),
        encode(step(nxt, room_version=nxt.room_version + 1, room_data=carried.encode_room(other))),
        encode(step(nxt, chat_seq=cs + 1, lines=(line,))),  # ends short of what it claims
        encode(step(nxt, chat_seq=cs, lines=(step(line, channel="secret"),))),  # mistyped
        encode(step(nxt, chat_seq=cs, lines=(step(line, text="x" * MAX_BYTES),))),  # oversized
        encode(step(nxt, game_version=gv))[:-1] + b',"actions":[{"version":"one"}]}',
    ]


async def test_forged_or_oversized_notices_are_hints_and_the_store_wins(played: Played) -> None:
    notices = played.notices
    first = notices.index(next(n for n in notices if n.game_version > 2))
    for i, (hub, conn) in enumerate(played.followers):
        at = min(first + 3 * i, len(notices) - 1)  # each forged at another point of the game
        for notice in notices[:at]:
            await hub.on_notice(wire(notice))
        held = hub.version, hub.runner.version if hub.runner else 0, hub.chat_seq
        forged = decode(forgeries(hub)[i])
        assert forged.bare() == decode(encode(forged.bare()))
        assert await hub.on_notice(forged) is Took.STORE, (i, held)
        # The store answered for what the forgery named; the rest is carried or old news.
        assert Took.STORE not in {await hub.on_notice(wire(n)) for n in notices[at:]}
        await assert_on_store(played, hub, conn)


async def test_oversized_messages_are_read_as_bare_versions() -> None:
    line = CarriedLine(1, None, "all", None, "A", "y" * 3000, 0.0)
    big = Notice("ROOM", 2, "g", 3, 7, lines=(line,) * 6)
    assert len(msgspec.json.encode(big)) > MAX_BYTES
    assert decode(encode(big)) == big.bare()  # the sender drops the carried part
    assert decode(msgspec.json.encode(big)) == big.bare()  # and so does the receiver
    small = Notice("ROOM", 2, "g", 3, 1, lines=(line,))
    assert decode(encode(small)) == small


@pytest.mark.parametrize("seed", range(4))
async def test_any_order_with_duplicates_gaps_and_forgeries_converges(
    played: Played, seed: int
) -> None:
    rng = random.Random(seed)
    hub, conn = played.followers[seed]
    messages = [encode(n) for n in played.notices]
    fed: list[bytes] = []
    for message in messages:
        if rng.random() < 0.1:
            continue  # lost
        fed.append(message)
        if rng.random() < 0.15:
            fed.append(message)  # twice
    for _ in range(len(fed) // 5):  # some out of order
        i = rng.randrange(len(fed) - 1)
        fed[i], fed[i + 1] = fed[i + 1], fed[i]
    reads = 0
    for message in fed:
        if rng.random() < 0.1:
            for forged in forgeries(hub):
                await hub.on_notice(decode(forged))
        reads += await hub.on_notice(decode(message)) is Took.STORE
    await hub.on_notice(played.notices[-1].bare())  # the last news as a hint (a sweep's)
    await assert_on_store(played, hub, conn)
    assert reads < len(fed)
