"""A small Mastermind table for the tests: seats "ann" (team a) and "bob" (team b).

A plain module (not conftest.py) so its name is unique on sys.path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from codebreakers.games.base import Applied, Rejection, Viewer
from codebreakers.games.mastermind import RULES, GameState

SEED = 424_242_424_242


class Match:
    """Plays parsed actions through RULES like the server would, and remembers the log."""

    def __init__(self, **options: Any) -> None:
        self.setup = {
            "options": options,
            "teams": {"a": ["ann"], "b": ["bob"]},
            "seed": SEED,
            "now": 1_700_000_000.0,
        }
        state = RULES.new_game(self.setup)
        assert not isinstance(state, Rejection), state
        self.state: GameState = state
        self.log: list[dict[str, Any]] = []

    def do(self, seat: str, action: dict[str, Any]) -> None:
        parsed = RULES.parse_action(action)
        assert not isinstance(parsed, Rejection), parsed
        applied = RULES.apply(self.state, seat, parsed, 1_700_000_100.0)
        assert isinstance(applied, Applied), applied
        self.state = applied.state
        self.log.append({"seat": seat, "action": action, "at": 1_700_000_100.0})

    def refused(self, seat: str, action: Any) -> str:
        """The rejection code of an action that must change nothing."""
        before = self.state
        parsed = RULES.parse_action(action)
        if isinstance(parsed, Rejection):
            return parsed.code
        applied = RULES.apply(self.state, seat, parsed, 1_700_000_100.0)
        assert isinstance(applied, Rejection), applied
        assert self.state is before
        return applied.code

    def seat(self, role: str) -> str:
        current = self.state.current
        assert current is not None
        team = current.breaker if role == "breaker" else current.maker
        return self.state.seats[team]

    def set_code(self, code: Sequence[int]) -> None:
        self.do(self.seat("maker"), {"type": "set_code", "code": list(code)})

    def guess(self, code: Sequence[int]) -> None:
        self.do(self.seat("breaker"), {"type": "guess", "code": list(code)})

    def mark(self, black: int, white: int) -> None:
        self.do(self.seat("maker"), {"type": "mark", "black": black, "white": white})

    def view(self, seat: str | None, open_spectator: bool = False) -> dict[str, Any]:
        return RULES.view(self.state, Viewer(seat, open_spectator))
