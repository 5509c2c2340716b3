"""The one path by which every bus hands messages to its listener.

Messages travel as JSON bytes even in-process, so a message Redis couldn't carry fails the same
way on the embedded bus as in production. One task delivers them in arrival order; a listener
that raises costs a count and a log line, never the delivery task.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec

from codebreakers.bus.base import BusStats, Listener

log = logging.getLogger(__name__)


def encode(message: dict[str, Any]) -> bytes:
    """JSON bytes; TypeError for a value JSON can't carry (a bug in the caller)."""
    return msgspec.json.encode(message)


class Mailbox:
    """An inbox of encoded messages and the task that feeds them to the listener."""

    def __init__(self, stats: BusStats) -> None:
        self._stats = stats
        self._inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def start(self, listener: Listener) -> None:
        if self._task is not None:
            raise RuntimeError("the bus is already started")
        self._task = asyncio.create_task(self._deliver(listener), name="bus-delivery")

    def put(self, payload: bytes) -> None:
        self._inbox.put_nowait(payload)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _deliver(self, listener: Listener) -> None:
        while True:
            payload = await self._inbox.get()
            try:
                message = msgspec.json.decode(payload)
            except msgspec.DecodeError:
                message = None
            if not isinstance(message, dict):
                self._stats.errors += 1
                log.warning("bus: ignored a message that isn't a JSON object: %.200r", payload)
                continue
            self._stats.received += 1
            try:
                await listener(message)
            except Exception:
                self._stats.errors += 1
                log.exception("bus: the listener failed on %r", message)
