"""The embedded bus: one process, so a notification goes straight to this node's listener."""

from __future__ import annotations

from codebreakers.bus.base import BusStats, Listener, Notice
from codebreakers.bus.mailbox import Mailbox, encode


class LocalBus:
    """Delivers each published notice to the listener from the event loop, each room's in order.

    `publish` never waits for the listener: a game action must not be slowed by whoever
    listens, just as it isn't with Redis.
    """

    def __init__(self) -> None:
        self._stats = BusStats()
        self._mailbox = Mailbox(self._stats)

    async def start(self, listener: Listener) -> None:
        self._mailbox.start(listener)

    async def publish(self, notice: Notice) -> None:
        self._mailbox.put(encode(notice))
        self._stats.published += 1

    async def close(self) -> None:
        await self._mailbox.close()

    @property
    def stats(self) -> BusStats:
        return self._stats

    @property
    def shared(self) -> bool:
        """No: this process is the only node, so servers skip publishing to it."""
        return False

    @property
    def healthy(self) -> bool:
        """Always: nothing stands between this process and itself."""
        return True
