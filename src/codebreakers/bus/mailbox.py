"""The one path by which every bus hands messages to its listener.

Messages travel as JSON bytes even in-process, so a message Redis couldn't carry fails the same
way on the embedded bus as in production. A listener may spend store round trips on a message,
so the messages of different rooms are delivered concurrently, on at most `LANES` lane tasks,
while each room's own (and the room-less ones, sharing one lane) stay one at a time in arrival
order. A listener that raises costs a count and a log line, never the lane.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any

import msgspec

from codebreakers.bus.base import BusStats, Listener

log = logging.getLogger(__name__)

# Lanes at once: enough to overlap the store round trips of several rooms' catch-ups, fewer than
# the PostgreSQL pool's 15 connections so this node's own actions still find one.
LANES = 8


def encode(message: dict[str, Any]) -> bytes:
    """JSON bytes; TypeError for a value JSON can't carry (a bug in the caller)."""
    return msgspec.json.encode(message)


class Mailbox:
    """Per-room queues of decoded messages and the lane tasks that feed them to the listener.

    A room's queue exists while it has messages and is served by at most one lane at a time;
    a lane that empties its room's queue moves on to a waiting room or ends. When every lane is
    busy, new rooms wait their turn and each lane takes turns between its room and them, so a
    busy room can't keep the others waiting for more than one message.
    """

    def __init__(self, stats: BusStats, lanes: int = LANES) -> None:
        self._stats = stats
        self._max_lanes = lanes
        self._listener: Listener | None = None
        self._queues: dict[str | None, deque[dict[str, Any]]] = {}
        self._waiting: deque[str | None] = deque()  # rooms with messages and no lane
        self._lanes: set[asyncio.Task[None]] = set()

    def start(self, listener: Listener) -> None:
        if self._listener is not None:
            raise RuntimeError("the bus is already started")
        self._listener = listener
        self._open_lanes()

    def put(self, payload: bytes) -> None:
        try:
            message = msgspec.json.decode(payload)
        except msgspec.DecodeError:
            message = None
        if not isinstance(message, dict):
            self._stats.errors += 1
            log.warning("bus: ignored a message that isn't a JSON object: %.200r", payload)
            return
        room = message.get("room")
        key = room if isinstance(room, str) else None
        queue = self._queues.get(key)
        if queue is not None:  # a lane serves this room, or it waits for one
            queue.append(message)
            return
        self._queues[key] = deque([message])
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

    async def _deliver(self, listener: Listener, message: dict[str, Any]) -> None:
        self._stats.received += 1
        try:
            await listener(message)
        except Exception:
            self._stats.errors += 1
            log.exception("bus: the listener failed on %r", message)
