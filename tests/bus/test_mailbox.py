"""The mailbox under both buses: rooms delivered concurrently, each room's messages in order."""

from __future__ import annotations

import asyncio
import hashlib
import random

import pytest
from bus_helpers import eventually

from codebreakers.bus.base import BusStats, Notice
from codebreakers.bus.mailbox import Mailbox, encode

pytestmark = pytest.mark.anyio


def note(room: str | None, i: int) -> bytes:
    return encode(Notice(room=room, room_version=i))


class Blocking:
    """A listener that holds every message of the rooms in `blocked` until released."""

    def __init__(self, *blocked: str | None) -> None:
        self.blocked = set(blocked)
        self.release = asyncio.Event()
        self.seen: list[tuple[str | None, int]] = []
        self.running: dict[str | None, int] = {}
        self.overlapped = False  # two deliveries of one room at once (must never be)

    async def __call__(self, message: Notice) -> None:
        room = message.room
        self.running[room] = self.running.get(room, 0) + 1
        self.overlapped |= self.running[room] > 1
        try:
            if room in self.blocked:
                await self.release.wait()
            await asyncio.sleep(0)
            self.seen.append((room, message.room_version))
        finally:
            self.running[room] -= 1


async def test_a_room_the_listener_blocks_on_does_not_hold_up_another() -> None:
    stats = BusStats()
    mailbox = Mailbox(stats)
    listener = Blocking("SLOW")
    mailbox.start(listener)
    try:
        mailbox.put(note("SLOW", 1))
        mailbox.put(note("SLOW", 2))
        mailbox.put(note("FAST", 1))
        mailbox.put(note(None, 1))
        await eventually(lambda: len(listener.seen) == 2)
        assert sorted(listener.seen, key=str) == [("FAST", 1), (None, 1)]
        listener.release.set()
        await eventually(lambda: len(listener.seen) == 4)
        assert listener.seen[2:] == [("SLOW", 1), ("SLOW", 2)]
        assert (stats.received, stats.errors) == (4, 0)
    finally:
        await mailbox.close()


async def test_each_room_in_arrival_order_one_at_a_time_while_rooms_overlap() -> None:
    stats = BusStats()
    mailbox = Mailbox(stats, lanes=3)  # fewer lanes than rooms: rooms take turns
    peak = 0
    running = 0
    seen: dict[str | None, list[int]] = {}
    busy: set[str | None] = set()
    overlapped = False
    rng = random.Random(7)

    async def listener(message: Notice) -> None:
        nonlocal peak, running, overlapped
        room = message.room
        overlapped |= room in busy
        busy.add(room)
        running += 1
        peak = max(peak, running)
        try:
            for _ in range(rng.randrange(4)):
                await asyncio.sleep(0)
            seen.setdefault(room, []).append(message.room_version)
        finally:
            running -= 1
            busy.discard(room)

    mailbox.start(listener)
    rooms: list[str | None] = ["A", "B", "C", "D", "E", None]
    try:
        for i in range(60):
            for room in rooms:
                mailbox.put(note(room, i))
            if i % 7 == 0:
                await asyncio.sleep(0)
        await eventually(lambda: sum(map(len, seen.values())) == 360)
        assert seen == {room: list(range(60)) for room in rooms}
        assert not overlapped
        assert peak == 3
        assert (stats.received, stats.errors) == (360, 0)
        await eventually(lambda: not mailbox._lanes)  # every lane ends once all is delivered
        assert not mailbox._queues and not mailbox._waiting
    finally:
        await mailbox.close()


async def test_a_room_waiting_for_a_lane_is_served_while_a_busy_room_keeps_talking() -> None:
    mailbox = Mailbox(BusStats(), lanes=1)
    seen: list[tuple[str | None, int]] = []

    async def listener(message: Notice) -> None:
        await asyncio.sleep(0)
        seen.append((message.room, message.room_version))

    mailbox.start(listener)
    try:
        for i in range(5):
            mailbox.put(note("BUSY", i))
        mailbox.put(note("OTHER", 0))
        await eventually(lambda: len(seen) == 6)
        assert seen.index(("OTHER", 0)) <= 1  # after at most one more of the busy room
        assert [i for room, i in seen if room == "BUSY"] == list(range(5))
    finally:
        await mailbox.close()


async def test_failures_and_unreadable_messages_are_counted_and_the_room_goes_on() -> None:
    stats = BusStats()
    mailbox = Mailbox(stats)
    seen: list[tuple[str | None, int]] = []

    async def picky(message: Notice) -> None:
        if message.room_version == 2:
            raise RuntimeError("listener bug")
        seen.append((message.room, message.room_version))

    mailbox.start(picky)
    try:
        for i in (1, 2, 3):
            mailbox.put(note("A", i))
            mailbox.put(note("B", i))
        mailbox.put(b"not json")
        mailbox.put(b"[1, 2]")
        await eventually(lambda: len(seen) == 4)
        assert [i for room, i in seen if room == "A"] == [1, 3]
        assert [i for room, i in seen if room == "B"] == [1, 3]
        assert (stats.received, stats.errors) == (6, 4)
    finally:
        await mailbox.close()


async def test_messages_put_before_start_are_delivered_once_started() -> None:
    mailbox = Mailbox(BusStats())
    listener = Blocking()
    mailbox.put(note("A", 1))
    mailbox.put(note("A", 2))
    await asyncio.sleep(0.01)
    assert listener.seen == []
    mailbox.start(listener)
    try:
        await eventually(lambda: listener.seen == [("A", 1), ("A", 2)])
        with pytest.raises(RuntimeError, match="already started"):
            mailbox.start(listener)
    finally:
        await mailbox.close()


async def test_close_cancels_every_lane() -> None:
    stats = BusStats()
    mailbox = Mailbox(stats, lanes=4)
    listener = Blocking("A", "B", "C", "D", "E")
    mailbox.start(listener)
    for room in "ABCDE":
        mailbox.put(note(room, 1))
    await eventually(lambda: sum(listener.running.values()) == 4)
    lanes = list(mailbox._lanes)
    assert len(lanes) == 4
    async with asyncio.timeout(1.0):
        await mailbox.close()
    assert all(task.cancelled() for task in lanes)
    assert not mailbox._lanes and not mailbox._queues and not mailbox._waiting
    assert listener.seen == [] and not listener.overlapped
    mailbox.put(note("A", 2))  # after close: kept out of the way, never delivered
    await asyncio.sleep(0.01)
    assert not mailbox._lanes and stats.received == 4


async def test_a_message_is_decoded_once_into_a_notice_and_a_mistyped_one_is_skipped() -> None:
    stats = BusStats()
    mailbox = Mailbox(stats)
    seen: list[Notice] = []

    async def listener(message: Notice) -> None:
        seen.append(message)

    mailbox.start(listener)
    try:
        mailbox.put(b'{"room": "A", "room_version": "two"}')
        mailbox.put(b'{"room": "A", "room_version": 3, "game_id": "g", "game_version": 5}')
        await eventually(lambda: len(seen) == 1)
        assert seen == [Notice("A", 3, "g", 5, 0)]
        assert (stats.received, stats.errors) == (1, 1)
    finally:
        await mailbox.close()


async def test_the_log_lines_carry_their_values_as_fields(caplog: pytest.LogCaptureFixture) -> None:
    """A fixed text and the values as fields (server/ops/logs.py writes them as JSON fields)."""
    mailbox = Mailbox(BusStats())

    async def failing(message: Notice) -> None:
        raise RuntimeError("listener bug")

    mailbox.start(failing)
    try:
        with caplog.at_level("WARNING", logger="codebreakers.bus.mailbox"):
            mailbox.put(b"not json")
            mailbox.put(note("K7Q2XM", 4))
            await eventually(lambda: len(caplog.records) == 2)
    finally:
        await mailbox.close()
    skipped, failed = caplog.records
    assert skipped.getMessage() == "bus: ignored a message that isn't a notice"
    assert skipped.payload_bytes == len(b"not json")  # type: ignore[attr-defined]
    assert skipped.payload_sha256 == hashlib.sha256(b"not json").hexdigest()[:16]  # type: ignore[attr-defined]
    assert "not json" not in caplog.text  # what a notice carries is never logged
    assert failed.getMessage() == "bus: the listener failed"
    assert (failed.room, failed.room_version) == ("K7Q2XM", 4)  # type: ignore[attr-defined]
    assert failed.exc_info is not None
