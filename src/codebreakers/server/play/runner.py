"""One game in memory: its state is the fold of its stored log, and every action is stored first.

The runner knows a store and a game's rules, nothing about sockets. `submit` applies an action
to the in-memory state, appends it to the store inside the store's version-checked
transaction, and only then adopts the new state; if another node appended first
(VERSION_CONFLICT) it catches up from the store and tries again. Callers serialise calls per
game (the room hub's lock), so within one node there is no race to lose.
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from codebreakers.bus.base import MAX_ROWS
from codebreakers.games.base import Action, GameRules, Rejection, Viewer
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.logs import BoundLogger, get_logger
from codebreakers.store.base import ActionRow, AppendResult, GameLog, GameRow

log = get_logger(__name__)

JSON = dict[str, Any]
RETRIES = 12  # races are lost only to other nodes writing the same room at the same moment
BACKOFF_CAP_S = 0.1


_SPECTATOR = Viewer(None)
_OPEN_SPECTATOR = Viewer(None, open_spectator=True)


async def backoff(attempt: int) -> None:
    """A random pause before retrying a lost race, so racing nodes fall out of step. It doubles
    with each attempt (up to 0.1 s): with a batching store a write takes longer to land, and a
    fixed short pause let several nodes keep colliding until the retries ran out."""
    await asyncio.sleep(random.uniform(0.0, min(BACKOFF_CAP_S, 0.002 * 2**attempt)))


@dataclass(slots=True)
class GameRunner:
    rules: GameRules[Any]
    game_id: str
    setup: JSON
    state: Any
    version: int = 0
    # (seat, client action id) -> the version it was stored at: retries are answered, not reapplied
    applied_ids: dict[tuple[str, str], int] = field(default_factory=dict)
    # The seated players, from the setup (which never changes): asked several times per action.
    _seats: frozenset[str] = field(init=False, repr=False)
    # Each seat's Viewer, made once: a frozen dataclass is slow to make, six per action.
    _viewers: dict[str, Viewer] = field(init=False, repr=False)
    # The last rows this runner has (appended or folded), oldest first: what a notice carries,
    # as many as one may (`bus.base.MAX_ROWS`).
    recent: deque[ActionRow] = field(init=False, repr=False)
    # This game's logger: its lines carry the game's id as a field.
    _log: BoundLogger = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._seats = frozenset(seat for team in self.setup["teams"].values() for seat in team)
        self._viewers = {seat: Viewer(seat) for seat in self._seats}
        self.recent = deque(maxlen=MAX_ROWS)
        self._log = log.bind(game=self.game_id)

    @classmethod
    def start(cls, rules: GameRules[Any], game_id: str, setup: JSON) -> GameRunner:
        state = rules.new_game(setup)
        if isinstance(state, Rejection):
            raise Refused(state.code, state.detail)
        return cls(rules, game_id, setup, state)

    @classmethod
    def from_row(cls, rules: GameRules[Any], row: GameRow) -> GameRunner:
        runner = cls.start(rules, row.id, row.setup)
        runner.fold(row.actions)
        return runner

    @staticmethod
    def ids_of(rows: Sequence[ActionRow]) -> dict[tuple[str, str], int]:
        """(seat, client action id) -> version of the stored actions that carry an id."""
        return {(r.seat, r.client_action_id): r.version for r in rows if r.client_action_id}

    def fold(self, rows: list[ActionRow]) -> None:
        """Replay stored actions (already checked when they were first applied) onto the state."""
        for row in rows:
            if row.version <= self.version:
                continue
            applied = self.rules.apply(
                self.state, row.seat, self.rules.load_action(row.action), row.at
            )
            if isinstance(applied, Rejection):  # the log and the rules disagree: a bug
                raise RuntimeError(f"game {self.game_id} v{row.version} replays as {applied}")
            self._adopt(applied.state, row)

    def fold_next(self, rows: Sequence[ActionRow]) -> bool:
        """Apply rows another node says it stored (a bus notice's) when they go on exactly from
        this runner's version; False, with nothing applied, when they don't: a gap, or a row
        the rules refuse or can't read (a notice is only a hint, never trusted over the store).
        Rows this runner already has are skipped."""
        rows = [row for row in rows if row.version > self.version]
        if not rows or any(row.version != self.version + i for i, row in enumerate(rows, 1)):
            return False
        rules, state, applied_rows = self.rules, self.state, []
        for row in rows:
            try:
                applied = rules.apply(state, row.seat, rules.load_action(row.action), row.at)
            except Exception:  # a carried row no stored action makes
                return False
            if isinstance(applied, Rejection):
                return False
            state = applied.state
            applied_rows.append((state, row))
        for state, row in applied_rows:
            self._adopt(state, row)
        return True

    def _adopt(self, state: Any, row: ActionRow) -> None:
        """The state after `row`, stored at its version."""
        self.state = state
        self.version = row.version
        if row.client_action_id is not None:
            self.applied_ids[(row.seat, row.client_action_id)] = row.version
        self.recent.append(row)

    async def catch_up(self, store: GameLog) -> bool:
        """Fold whatever other nodes appended since our version; True when something was."""
        rows = await store.actions_since(self.game_id, self.version)
        before = self.version
        self.fold(rows)
        return self.version != before

    async def submit(
        self,
        store: GameLog,
        seat: str,
        action: Action,
        client_id: str | None,
        now: float,
    ) -> bool:
        """Apply and store one action; True if it is new, False if `client_id` was a retry.

        Raises Refused with the engine's code when the action is illegal, or `busy` when other
        nodes keep winning the race for the next version.
        """
        for attempt in range(RETRIES):
            if attempt:
                await backoff(attempt)
            if client_id is not None and (seat, client_id) in self.applied_ids:
                return False
            applied = self.rules.apply(self.state, seat, action, now)
            if isinstance(applied, Rejection):
                # Another node may have moved the game on (its notice not here yet): judge the
                # action against the stored game before refusing it.
                if attempt == 0 and await self.catch_up(store):
                    continue
                raise Refused(applied.code, applied.detail)
            row = ActionRow(self.version + 1, seat, client_id, action.to_json(), now)
            result = await store.append_action(self.game_id, row)
            if result is AppendResult.APPENDED:
                self._adopt(applied.state, row)
                return True
            if result is AppendResult.DUPLICATE and client_id is not None:
                found = await store.find_action(self.game_id, seat, client_id)
                if found is not None:
                    self.applied_ids[(seat, client_id)] = found.version
            await self.catch_up(store)
        self._log.warning("gave up after version conflicts", seat=seat, tries=RETRIES)
        raise Refused(ErrorCode.BUSY, "the game changed concurrently; send again with the same id")

    def view(self, seat: str | None, open_spectator: bool) -> JSON:
        return self.rules.view(self.state, self._viewer(seat, open_spectator))

    def views_json(self, seats: Sequence[str | None], open_spectator: bool) -> list[bytes]:
        """The serialised views of `seats` (None: a spectator), in order."""
        return self.rules.views_json(
            self.state, [self._viewer(seat, open_spectator) for seat in seats]
        )

    def _viewer(self, seat: str | None, open_spectator: bool) -> Viewer:
        """Who looks through `seat` (None: a spectator, open when the room says so); "open
        spectators" never applies to a seat."""
        if seat is None:
            return _OPEN_SPECTATOR if open_spectator else _SPECTATOR
        return self._viewers.get(seat) or Viewer(seat)

    def seats(self) -> frozenset[str]:
        return self._seats

    @property
    def over(self) -> bool:
        return self.rules.is_over(self.state)

    def deadline(self) -> float | None:
        return self.rules.next_deadline(self.state)
