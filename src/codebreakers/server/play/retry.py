"""How bots and timers try again when their move or `timeout` did not go through.

Nothing else would: in a game of one person and bots, a dropped bot move or timeout stalls the
game. A `busy` refusal (the store overloaded, or a change that kept meeting concurrent ones) is
tried again after BUSY_RETRY_S; a failure (a database restarting, say) after BUSY_RETRY_S, then
twice as long each time it fails again, at most a minute. The move's id and the version check
keep a retry from applying anything twice.
"""

from __future__ import annotations

import asyncio
import logging

from codebreakers.server.errors import Refused

log = logging.getLogger(__name__)

BUSY_RETRY_S = 1.0
FAILURE_RETRY_MAX_S = 60.0


class Backoff:
    """The pause before the next try of one task (`what`, for the log)."""

    __slots__ = ("_failures", "_what")

    def __init__(self, what: str) -> None:
        self._what = what
        self._failures = 0

    def succeeded(self) -> None:
        self._failures = 0

    async def pause(self, error: Exception) -> None:
        """Log `error` and wait as long as its kind asks."""
        if isinstance(error, Refused) and error.busy:
            log.warning("%s: tried again shortly: %s", self._what, error)
            delay = BUSY_RETRY_S
        else:
            log.error("%s failed; tried again", self._what, exc_info=error)
            delay = min(BUSY_RETRY_S * 2 ** min(self._failures, 16), FAILURE_RETRY_MAX_S)
            self._failures += 1
        await asyncio.sleep(delay)
