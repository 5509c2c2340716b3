"""Reading the held rooms from the store when the bus can't be trusted to say what changed.

The bus is at-most-once: notices published while Redis is away (or while this node's
subscription is down) are gone. So this loop watches `bus.healthy`:

- while the bus is unhealthy, every room this node holds is read from the store every
  `poll_s` (only what the room lacks: room row, new actions, new chat lines);
- the moment it is healthy again, once more, because what changed between the last poll and
  the new subscription was announced to nobody;
- and every `sweep_s` even when healthy, so a notice lost in a way the bus can't see (another
  node's publish that failed) leaves a room stale for a bounded time only.

Each room is first asked for its head (room version, game version, chat sequence: one read);
only a room the store has further than this node goes through the hub's own `on_notice`, under
the room's lock, so a catch-up and a change on this node can't interleave and sockets get
exactly what they lack. A sweep is spread over half its period rather than done in one burst:
thousands of rooms read back to back would hold up the players' actions for a second.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Protocol

from codebreakers.bus.base import Bus, Notice
from codebreakers.server.ops.logs import get_logger
from codebreakers.store.base import Store

log = get_logger(__name__)

POLL_S = 1.0
SWEEP_S = 30.0
WATCH_S = 0.25  # how often `bus.healthy` is looked at


class Held(Protocol):
    """What catch-up needs of a room this node holds (`RoomHub`)."""

    @property
    def code(self) -> str: ...

    def notice(self) -> Notice:
        """The versions this node has, as a bus notice says them."""
        ...

    async def on_notice(self, notice: Notice) -> object:
        """Catch up with what `notice` names (its result is the bus listener's to count)."""
        ...


async def behind(store: Store, held: Held) -> Notice | None:
    """A notice of what the store has that `held` lacks, or None when it lacks nothing."""
    has = held.notice()
    game_id = has.game_id
    head = await store.room_head(held.code, game_id)
    if head is None:
        return None
    lacks = (
        head.room_version > has.room_version
        or (game_id is not None and head.game_version > has.game_version)
        or head.chat_seq > has.chat_seq
    )
    if not lacks:
        return None
    return Notice(held.code, head.room_version, game_id, head.game_version, head.chat_seq)


class CatchUp:
    """Watches the bus and reads the held rooms from the store when it can't be trusted: `held`
    lists them now, `counted(reason)` counts each full read."""

    def __init__(
        self,
        store: Store,
        bus: Bus,
        held: Callable[[], Iterable[Held]],
        counted: Callable[[str], None],
        poll_s: float = POLL_S,
        sweep_s: float = SWEEP_S,
    ) -> None:
        self._store = store
        self._bus = bus
        self._held = held
        self._counted = counted
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

    async def all_rooms(self, reason: str, spread_s: float = 0.0) -> None:
        """Read every held room's news from the store, over `spread_s` seconds; a failing room
        doesn't stop the rest."""
        self._counted(reason)
        rooms = list(self._held())
        pause = spread_s / len(rooms) if rooms else 0.0
        for held in rooms:
            try:
                notice = await behind(self._store, held)
                if notice is not None:
                    await held.on_notice(notice)
            except Exception:
                log.warning("catching up from the store failed", room=held.code, exc_info=True)
            if pause:
                await asyncio.sleep(pause)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        bus = self._bus
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
                    log.warning("bus unhealthy: polling the store", every_s=self._poll_s)
                await self.all_rooms("poll")
            elif healthy and now - last >= self._sweep_s:
                await self.all_rooms("sweep", self._sweep_s / 2)
            else:
                continue
            was_healthy, last = healthy, loop.time()
