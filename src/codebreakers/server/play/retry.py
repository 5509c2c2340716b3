"""How bots and timers try again when their move or `timeout` did not go through.

Nothing else would: in a game of one person and bots, a dropped bot move or timeout stalls the
game. `busy` (`StoreBusy`: the store overloaded; or a `busy` refusal: a change that kept
meeting concurrent ones) is tried again after BUSY_RETRY_S; a failure (a database restarting,
say) after BUSY_RETRY_S, then twice as long each time it fails again, at most a minute. The
move's id and the version check keep a retry from applying anything twice.
"""

from __future__ import annotations

import asyncio

from codebreakers.server.errors import Refused
from codebreakers.server.ops.logs import get_logger
from codebreakers.store.base import StoreBusy

log = get_logger(__name__)

BUSY_RETRY_S = 1.0
FAILURE_RETRY_MAX_S = 60.0


class Backoff:
    """The pause before the next try of one task (`what`, and the room it is for: the log's)."""

    __slots__ = ("_failures", "_log")

    def __init__(self, what: str, room: str | None = None) -> None:
        self._log = log.bind(task=what, room=room)
        self._failures = 0

    def succeeded(self) -> None:
        self._failures = 0

    async def pause(self, error: Exception) -> None:
        """Log `error` and wait as long as its kind asks."""
        if isinstance(error, StoreBusy) or (isinstance(error, Refused) and error.busy):
            self._log.warning("busy: tried again shortly", error=str(error))
            delay = BUSY_RETRY_S
        else:
            self._log.error("failed; tried again", exc_info=error)
            delay = min(BUSY_RETRY_S * 2 ** min(self._failures, 16), FAILURE_RETRY_MAX_S)
            self._failures += 1
        await asyncio.sleep(delay)
