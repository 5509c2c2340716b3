"""A game's next deadline as one armed timer per room; deadlines live in the game state.

The engine says when a `timeout` becomes applicable (`next_deadline`); nothing about timers is
stored apart from the game itself, so after a restart folding the log gives the same deadline
and the node arms it again. Firing early or late is harmless: the hub checks the clock and the
engine checks the deadline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


class RoomTimer:
    __slots__ = ("_clock", "_fire", "_handle", "_task")

    def __init__(
        self, fire: Callable[[], Coroutine[Any, Any, None]], clock: Callable[[], float]
    ) -> None:
        self._fire = fire
        self._clock = clock
        self._handle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None  # kept referenced while it runs

    def arm(self, at: float | None) -> None:
        """Fire at `at` (seconds since the epoch by the node's clock), or never for None.

        Always scheduled afresh from the clock's current reading, so a clock that jumped (or a
        test's clock moved by hand) is taken into account at the next change.
        """
        self.cancel()
        if at is not None:
            delay = max(0.0, at - self._clock())
            self._handle = asyncio.get_running_loop().call_later(delay, self._start)

    def _start(self) -> None:
        self._handle = None
        self._task = asyncio.get_running_loop().create_task(self._fire())

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
