"""Drives a room's bot seats: after each change, ask the bots (one move at a time) what to do.

A bot gets exactly its seat's view and its move goes through the same path as a person's
(parse, apply, store, push), so it can neither cheat nor corrupt a game. `decide` may take a
few hundred milliseconds, so it runs in a worker thread; the pause before a move is a setting
(a human-like rhythm in play, zero in tests).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from codebreakers.bots.base import Bot, BotMove
from codebreakers.server.errors import Refused
from codebreakers.server.ops.config import BotFactory
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.play.retry import Backoff
from codebreakers.server.play.runner import GameRunner

log = get_logger(__name__)


class BotTable(Protocol):
    """What the driver needs of a room (`rooms.hub.RoomHub`): its game, its bot seats, and a
    way to move as one of them."""

    @property
    def code(self) -> str: ...

    @property
    def game(self) -> str: ...

    @property
    def runner(self) -> GameRunner | None: ...

    def bot_seats(self) -> tuple[str, ...]: ...

    def bot_level(self, seat: str) -> str: ...

    async def views_ready(self) -> None: ...

    async def act_as_bot(self, seat: str, move: BotMove, action_id: str) -> None: ...

    async def publish(self) -> None: ...


class BotDriver:
    __slots__ = ("_again", "_bots", "_delay", "_hub", "_make", "_task")

    def __init__(self, hub: BotTable, make: BotFactory, delay: float) -> None:
        self._hub = hub
        self._make = make
        self._delay = delay
        self._bots: dict[tuple[str, str], Bot] = {}
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def poke(self) -> None:
        """Something changed: make sure the bots get a look at the new state."""
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._run())

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        backoff = Backoff("a bot move", room=self._hub.code)
        while True:
            self._again = False
            try:
                moved = await self._step()
            except Exception as error:  # `busy`, a failed store, or a failed bot
                await backoff.pause(error)
                continue
            backoff.succeeded()
            if not moved and not self._again:
                return

    def _bot(self, game_id: str, seat: str) -> Bot:
        key = (game_id, seat)
        if key not in self._bots:
            hub = self._hub
            runner = hub.runner
            assert runner is not None
            options: dict[str, Any] = runner.setup["options"]
            self._bots = {k: b for k, b in self._bots.items() if k[0] == game_id}
            self._bots[key] = self._make(
                hub.game,
                level=hub.bot_level(seat),
                lang=options.get("words", "en"),
                seed=(runner.setup["seed"] + sum(map(ord, seat))) % 2**62,
                seat=seat,
            )
        return self._bots[key]

    async def _step(self) -> bool:
        """Let the first bot that wants to move make one move; True if one did."""
        hub = self._hub
        for seat in hub.bot_seats():
            runner = hub.runner
            assert runner is not None
            version, game_id = runner.version, runner.game_id
            await hub.views_ready()
            move = await asyncio.to_thread(
                self._bot(game_id, seat).decide, runner.view(seat, False)
            )
            if move is None:
                continue
            await asyncio.sleep(self._delay)
            if hub.runner is not runner or runner.version != version:
                return True  # the game moved on while this bot thought: look again
            try:
                # Unique across the room's games: a rematch remembers the last game's ids.
                await hub.act_as_bot(seat, move, f"bot-{game_id}-{version}")
            except Refused as refused:
                if refused.busy:
                    raise
                log.warning(
                    "bot move refused",
                    room=hub.code,
                    seat=seat,
                    code=refused.code,
                    detail=refused.detail,
                )
                continue
            await hub.publish()
            return True
        return False
