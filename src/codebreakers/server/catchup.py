"""Reading the held rooms from the store when the bus can't be trusted to say what changed.

The bus is at-most-once: notices published while Redis is away (or while this node's
subscription is down) are gone. So this loop watches `bus.healthy`:

- while the bus is unhealthy, every room this node holds is read from the store every
  `poll_s` (only what the room lacks: room row, new actions, new chat lines);
- the moment it is healthy again, once more, because what changed between the last poll and
  the new subscription was announced to nobody;
- and every `sweep_s` even when healthy, so a notice lost in a way the bus can't see (another
  node's publish that failed) leaves a room stale for a bounded time only.

Each read goes through the hub's own `on_notice`, under the room's lock, so a catch-up and a
change on this node can't interleave and sockets get exactly what they lack.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codebreakers.server.hub import RoomHub
    from codebreakers.server.node import Node

log = logging.getLogger(__name__)

POLL_S = 1.0
SWEEP_S = 30.0
WATCH_S = 0.25  # how often `bus.healthy` is looked at


def everything_after(hub: RoomHub) -> dict[str, Any]:
    """A notice claiming more than any version: the hub reads whatever the store has newer."""
    runner = hub.runner
    return {
        "room": hub.code,
        "room_version": sys.maxsize,
        "game_id": runner.game_id if runner else None,
        "game_version": sys.maxsize,
        "chat_seq": sys.maxsize,
    }


class CatchUp:
    def __init__(self, node: Node, poll_s: float = POLL_S, sweep_s: float = SWEEP_S) -> None:
        self._node = node
        self._poll_s = poll_s
        self._sweep_s = sweep_s
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="catch-up")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def all_rooms(self, reason: str) -> None:
        """Read every held room's news from the store; a failing room doesn't stop the rest."""
        node = self._node
        node.metrics.bump(node.metrics.catchups, (("reason", reason),))
        for hub in list(node.hubs.values()):
            try:
                await hub.on_notice(everything_after(hub))
            except Exception:
                log.warning("room %s: catching up from the store failed", hub.code, exc_info=True)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        bus = self._node.ports.bus
        was_healthy = bus.healthy
        last = loop.time()
        while True:
            await asyncio.sleep(WATCH_S)
            healthy, now = bus.healthy, loop.time()
            if healthy and not was_healthy:
                log.info("bus healthy again: catching up every held room")
                await self.all_rooms("recovered")
            elif not healthy and (was_healthy or now - last >= self._poll_s):
                if was_healthy:
                    log.warning("bus unhealthy: polling the store every %.1f s", self._poll_s)
                await self.all_rooms("poll")
            elif healthy and now - last >= self._sweep_s:
                await self.all_rooms("sweep")
            else:
                continue
            was_healthy, last = healthy, loop.time()
