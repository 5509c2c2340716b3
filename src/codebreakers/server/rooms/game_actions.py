"""A room's game actions on this node: by players, bots and the timer, and the game's end.

An action is parsed, judged against the state the deadlines already passed leave, stored by the
runner (version-checked: two nodes can't both win), then its views are built and pushed; a game
that ended is finished in the store and in the room. `changed` is called after every change of
the game (the node re-arms the room's timer and pokes its bots). Called with the room's lock held.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from codebreakers.games.base import SYSTEM_SEAT, Rejection
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.play.runner import GameRunner
from codebreakers.server.rooms import document
from codebreakers.server.rooms.fanout import Fanout
from codebreakers.server.rooms.held import HeldRoom
from codebreakers.server.rooms.model import RoomStatus

log = get_logger(__name__)

JSON = dict[str, Any]
# Timeouts applied before a late action, at most: one applies every deadline passed at once, the
# next round's start new ones (docs/rules-choices.md), so a few always suffice.
OVERDUE_TIMEOUTS = 4


class GameActions:
    def __init__(self, room: HeldRoom, fanout: Fanout, changed: Callable[[], None]) -> None:
        self._room = room
        self._fanout = fanout
        self._changed_game = changed

    def running_seat(self, seat: str) -> GameRunner:
        """The running game, refusing a seat that doesn't play in it."""
        room = self._room
        runner = room.runner
        if runner is None or room.data.status is not RoomStatus.PLAYING:
            raise Refused(ErrorCode.NO_GAME, "no game is running")
        if seat != SYSTEM_SEAT and seat not in runner.seats():
            raise Refused(ErrorCode.NOT_SEATED, "spectators don't play")
        return runner

    def check(self, actor: str, raw: JSON) -> None:
        """Judge an action as `submit` would, applying and storing nothing."""
        room = self._room
        runner = self.running_seat(actor)
        action = room.rules.parse_action(raw)
        if isinstance(action, Rejection):
            raise Refused(action.code, action.detail)
        judged = room.rules.apply(runner.state, actor, action, room.ports.clock())
        if isinstance(judged, Rejection):
            raise Refused(judged.code, judged.detail)

    async def submit(self, seat: str, raw: JSON, action_id: str | None) -> int:
        """Parse, apply, store and push one action; the version it was stored at."""
        room = self._room
        runner = room.runner
        if runner is not None and action_id is not None and (seat, action_id) in runner.applied_ids:
            return runner.applied_ids[(seat, action_id)]  # a retry, even of a game's last action
        runner = self.running_seat(seat)
        action = room.rules.parse_action(raw)
        if isinstance(action, Rejection):
            raise Refused(action.code, action.detail)
        if seat != SYSTEM_SEAT:
            await self._overdue_timeouts(runner)
        if await runner.submit(room.ports.store, seat, action, action_id, room.ports.clock()):
            await self._applied(runner)
        if action_id is None:
            return runner.version
        return runner.applied_ids[(seat, action_id)]

    async def timeout(self) -> None:
        """The timer fired: apply `timeout` by the system seat once the deadline has passed."""
        room = self._room
        runner = room.runner
        deadline = runner.deadline() if runner else None
        if runner is None or deadline is None:
            return
        if room.ports.clock() >= deadline:
            try:
                await self.submit(SYSTEM_SEAT, {"type": "timeout"}, None)
                return
            except Refused as refused:
                if refused.busy:
                    raise  # the timer tries again shortly (Node._fire)
                log.warning(
                    "timeout refused", room=room.code, code=refused.code, detail=refused.detail
                )
        self._changed_game()  # early wake-up or refused: arm again

    async def views_ready(self) -> None:
        """Build in a worker thread the parts of the game's views too slow for the event loop
        (a Mastermind round's solver comparison), so one room can't stall every other."""
        room = self._room
        runner = room.runner
        work = room.rules.slow_view_work(runner.state) if runner is not None else None
        if work is not None:
            await asyncio.to_thread(work)

    def push_views(self) -> None:
        runner = self._room.runner
        if runner is not None:
            self._fanout.push_views(runner, self._room.open_spectators())

    async def _overdue_timeouts(self, runner: GameRunner) -> None:
        """Apply the deadlines that passed before this action arrived but whose timer hasn't run
        (a slow timer, a restart): an action after its deadline must not win over the timer, so
        it is judged against the state the timeouts leave."""
        room = self._room
        for _ in range(OVERDUE_TIMEOUTS):
            deadline = runner.deadline()
            now = room.ports.clock()
            if runner.over or deadline is None or now < deadline:
                return
            try:
                timeout = room.rules.load_action({"type": "timeout"})
                applied = await runner.submit(room.ports.store, SYSTEM_SEAT, timeout, None, now)
            except Refused as refused:
                if refused.busy:
                    raise
                log.warning(
                    "overdue timeout refused",
                    room=room.code,
                    code=refused.code,
                    detail=refused.detail,
                )
                return
            if applied:
                await self._applied(runner)

    async def _applied(self, runner: GameRunner) -> None:
        """After an applied action: views built and pushed, the game finished if it ended, the
        timer and bots told."""
        room = self._room
        await self.views_ready()
        self._fanout.push_views(runner, room.open_spectators())
        if runner.over:
            await self.finish()
            self._fanout.push_room(room.data, room.version)
        self._changed_game()

    async def finish(self) -> None:
        """Record the outcome of the game that ended, with its results and ratings (once, in the
        same transaction: store/ratings), and the room's end of it. Rated: a public room's
        game, or one the host marked rated (docs/ratings.md)."""
        room = self._room
        runner = room.runner
        ratings = room.ports.ratings
        assert runner is not None and ratings is not None
        state = runner.state
        outcome = room.rules.outcome(state) or {}
        rated = room.data.public or room.data.options.get("rated") is True
        now = room.ports.clock()
        await ratings.finish_game(runner.game_id, outcome, room.rules.results(state), rated, now)
        await room.change(lambda data: (document.finish(data), None))
