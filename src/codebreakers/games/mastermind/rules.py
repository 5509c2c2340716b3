"""`MastermindRules`: the GameRules contract (games/base.py), wired to the modules behind it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from codebreakers.games.base import JSON, Action, Applied, Rejection, Viewer
from codebreakers.games.mastermind.actions import Guess, Mark, SetCode, ShowPossible
from codebreakers.games.mastermind.compare import comparison
from codebreakers.games.mastermind.options import check_options
from codebreakers.games.mastermind.parse import load_action, parse_action
from codebreakers.games.mastermind.play import guess, mark, new_game, set_code, show_possible
from codebreakers.games.mastermind.rejections import RejectionCode, reject
from codebreakers.games.mastermind.results import results
from codebreakers.games.mastermind.state import OVER, TEAMS, GameState
from codebreakers.games.mastermind.view import build_view, outcome_json
from codebreakers.games.results import GameResults

_encode = msgspec.json.Encoder().encode


class MastermindRules:
    """Super Mastermind (and other sizes) as the server, the bots and the simulations see it."""

    name = "mastermind"
    # A seat's own counter preference is nobody else's business (records.export_record drops it).
    private_actions = frozenset({"show_possible"})

    def check_options(self, options: Mapping[str, Any]) -> JSON | Rejection:
        return check_options(options)

    def team_sizes(self, options: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
        return {name: (1, 1) for name in TEAMS}

    def new_game(self, setup: Mapping[str, Any]) -> GameState | Rejection:
        return new_game(setup)

    def parse_action(self, raw: Any) -> Action | Rejection:
        return parse_action(raw)

    def load_action(self, stored: Mapping[str, Any]) -> Action:
        return load_action(stored)

    def apply(
        self, state: GameState, seat: str, action: Action, now: float
    ) -> Applied[GameState] | Rejection:
        if state.phase == OVER:
            return reject(RejectionCode.GAME_OVER)
        team = state.team_of(seat)
        if team is None:
            return reject(RejectionCode.NOT_A_PLAYER)
        match action:
            case ShowPossible():
                return show_possible(state, seat, action)
            case SetCode():
                return set_code(state, team, action)
            case Guess():
                return guess(state, team, action)
            case Mark():
                return mark(state, team, action)
        raise TypeError(f"not a Mastermind action: {action!r}")

    def view(self, state: GameState, viewer: Viewer) -> JSON:
        return build_view(state, viewer)

    def views_json(self, state: GameState, viewers: Sequence[Viewer]) -> list[bytes]:
        return [_encode(build_view(state, viewer)) for viewer in viewers]

    def next_deadline(self, state: GameState) -> float | None:
        """No timers: a Mastermind row takes as long as it takes."""
        return None

    def is_over(self, state: GameState) -> bool:
        return state.phase == OVER

    def outcome(self, state: GameState) -> JSON | None:
        return outcome_json(state)

    def results(self, state: GameState) -> GameResults | None:
        return results(state)

    def can_chat(self, state: GameState, seat: str, channel: str) -> bool:
        """All chat is open to everyone; a team of one has no team chat."""
        return channel == "all"

    def slow_view_work(self, state: GameState) -> Callable[[], None] | None:
        """The solver comparison of finished rounds (a few tenths of a second each at 5 x 8)."""
        pending = [done for done in state.finished if "comparison" not in done.memo]
        if not pending:
            return None

        def compare_all() -> None:
            for done in pending:
                comparison(done, state.options)  # cached on `done` for every later view

        return compare_all

    def seat_team(self, state: GameState, seat: str) -> str | None:
        team = state.team_of(seat)
        return TEAMS[team] if team is not None else None
