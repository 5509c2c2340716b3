"""The one path by which every bus hands messages to its listener.

Messages travel as JSON bytes even in-process, so a message Redis couldn't carry fails the same
way on the embedded bus as in production; each is decoded here, once, into a `Notice` (anything
else on the channel is counted and skipped). Both ends hold a notice to `MAX_BYTES`: `encode`
drops what a notice carries when it would be longer, and a longer message, or one whose
carried part doesn't decode (a mistyped row, a field over its bound), is delivered as the bare
versions it names, so the receiver reads the store.

A listener may spend store round trips on a message, so the messages of different rooms are
delivered concurrently, on at most `LANES` lane tasks, while each room's own (and the room-less
ones, sharing one lane) stay one at a time in arrival order. A listener that raises costs a
count and a log line, never the lane.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import deque

import msgspec

from codebreakers.bus.base import MAX_BYTES, BusStats, Listener, Notice

# Fixed texts, the values as `extra=` fields: server/ops/logs.py writes those as fields of the
# line (JSON), as it does structlog's bound context, so a search by field finds bus lines too.
log = logging.getLogger(__name__)

# Lanes at once: enough to overlap the store round trips of several rooms' catch-ups, fewer than
# the PostgreSQL pool's 15 connections so this node's own actions still find one.
LANES = 8


class _Versions(msgspec.Struct, frozen=True):
    """A notice's versions alone: what is read of a message whose carried part is unusable
    (unknown fields, the carried ones included, are skipped by the decoder)."""

    room: str | None = None
    room_version: int = 0
    game_id: str | None = None
    game_version: int = 0
    chat_seq: int = 0


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(Notice).decode
_decode_versions = msgspec.json.Decoder(_Versions).decode


def encode(notice: Notice) -> bytes:
    """JSON bytes, at most `MAX_BYTES` unless the versions alone are longer (a room code no
    node makes); TypeError for a value JSON can't carry (a bug in the caller)."""
    payload = _encode(notice)
    if len(payload) > MAX_BYTES and notice.carries:
        return _encode(notice.bare())
    return payload


def decode(payload: bytes) -> Notice:
    """The notice a message holds, its carried part dropped when the message is over
    `MAX_BYTES` or that part doesn't decode; msgspec.DecodeError when not even the versions
    do (not JSON, not an object, a version of the wrong type)."""
    if len(payload) <= MAX_BYTES:
        try:
            return _decode(payload)
        except msgspec.DecodeError:
            pass  # the versions alone may still be readable
    v = _decode_versions(payload)
    return Notice(v.room, v.room_version, v.game_id, v.game_version, v.chat_seq)


class Mailbox:
    """Per-room queues of decoded notices and the lane tasks that feed them to the listener.

    A room's queue exists while it has messages and is served by at most one lane at a time;
    a lane that empties its room's queue moves on to a waiting room or ends. When every lane is
    busy, new rooms wait their turn and each lane takes turns between its room and them, so a
    busy room can't keep the others waiting for more than one message.
    """

    def __init__(self, stats: BusStats, lanes: int = LANES) -> None:
        self._stats = stats
        self._max_lanes = lanes
        self._listener: Listener | None = None
        self._queues: dict[str | None, deque[Notice]] = {}
        self._waiting: deque[str | None] = deque()  # rooms with messages and no lane
        self._lanes: set[asyncio.Task[None]] = set()

    def start(self, listener: Listener) -> None:
        if self._listener is not None:
            raise RuntimeError("the bus is already started")
        self._listener = listener
        self._open_lanes()

    def put(self, payload: bytes) -> None:
        try:
            notice = decode(payload)
        except msgspec.DecodeError:  # not JSON, not an object, or a field of the wrong type
            self._stats.errors += 1
            # Its size and a digest, never its bytes: a notice carries game rows (clues, codes)
            # and a newer node's notice that this one can't read would put them in the log.
            digest = hashlib.sha256(payload).hexdigest()[:16]
            log.warning(
                "bus: ignored a message that isn't a notice",
                extra={"payload_bytes": len(payload), "payload_sha256": digest},
            )
            return
        key = notice.room
        queue = self._queues.get(key)
        if queue is not None:  # a lane serves this room, or it waits for one
            queue.append(notice)
            return
        self._queues[key] = deque([notice])
        self._waiting.append(key)
        self._open_lanes()

    async def close(self) -> None:
        self._listener = None
        lanes = list(self._lanes)
        for task in lanes:
            task.cancel()
        await asyncio.gather(*lanes, return_exceptions=True)
        self._queues.clear()
        self._waiting.clear()

    def _open_lanes(self) -> None:
        listener = self._listener
        while listener is not None and self._waiting and len(self._lanes) < self._max_lanes:
            key = self._waiting.popleft()
            self._lanes.add(asyncio.create_task(self._lane(listener, key), name="bus-delivery"))

    async def _lane(self, listener: Listener, key: str | None) -> None:
        task = asyncio.current_task()
        assert task is not None
        try:
            while True:
                queue = self._queues[key]
                await self._deliver(listener, queue.popleft())
                if queue and not self._waiting:
                    continue
                if queue:
                    self._waiting.append(key)  # other rooms wait for a lane: take turns
                else:
                    del self._queues[key]
                if not self._waiting:
                    return
                key = self._waiting.popleft()
        finally:
            # At once, not in a done callback: a room queued meanwhile must find a free lane.
            self._lanes.discard(task)

    async def _deliver(self, listener: Listener, notice: Notice) -> None:
        self._stats.received += 1
        try:
            await listener(notice)
        except Exception:
            self._stats.errors += 1
            log.exception(
                "bus: the listener failed",
                extra={"room": notice.room, "room_version": notice.room_version},
            )
