"""A scripted Decrypto table for the tests in this folder: seats w1.. and b1.., known keywords."""

from __future__ import annotations

import copy
from typing import Any

from codebreakers.games.base import SYSTEM_SEAT, Applied, Rejection, Viewer
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.state import Transmission

WORDS = [
    "apple", "river", "castle", "piano", "tiger", "moon",
    "bread", "engine", "forest", "glass", "hammer", "island",
]  # fmt: skip
TEAM = {"white": 0, "black": 1}


def make_setup(white: int = 2, black: int = 2, seed: int = 7, **options: Any) -> dict[str, Any]:
    if options.get("three_player"):
        white, black = 2, 1
    return {
        "options": {"words": "custom", "custom_words": WORDS, **options},
        "teams": {
            "white": [f"w{i}" for i in range(1, white + 1)],
            "black": [f"b{i}" for i in range(1, black + 1)],
        },
        "seed": seed,
        "now": 1000.0,
    }


class Table:
    """Drives one game through RULES, checking that no action mutates the state it was given."""

    def __init__(self, white: int = 2, black: int = 2, seed: int = 7, **options: Any) -> None:
        self.setup = make_setup(white, black, seed, **options)
        state = RULES.new_game(self.setup)
        assert isinstance(state, GameState), state
        self.state = state
        self.now = 1000.0
        self.actions: list[dict[str, Any]] = []
        self.clue_count = 0

    # -- raw actions -------------------------------------------------------------------------
    def attempt(self, seat: str, raw: dict[str, Any], at: float | None = None) -> Any:
        self.now = self.now + 1 if at is None else at
        action = RULES.parse_action(raw)
        if isinstance(action, Rejection):
            return action
        before = copy.deepcopy(self.state)
        result = RULES.apply(self.state, seat, action, self.now)
        assert self.state == before, "apply mutated the state it was given"
        if isinstance(result, Applied):
            self.state = result.state
            self.actions.append({"seat": seat, "action": action.to_json(), "at": self.now})
        return result

    def do(self, seat: str, raw: dict[str, Any], at: float | None = None) -> Applied[GameState]:
        result = self.attempt(seat, raw, at)
        assert isinstance(result, Applied), f"{seat} {raw}: {result}"
        return result

    def refuse(self, seat: str, raw: dict[str, Any], code: str) -> Rejection:
        before = self.state
        result = self.attempt(seat, raw)
        assert isinstance(result, Rejection), f"{seat} {raw} was accepted"
        assert result.code == code, result
        assert self.state is before
        return result

    # -- reading the state ---------------------------------------------------------------------
    def t(self, team: str) -> Transmission:
        t = self.state.current.transmissions[TEAM[team]]
        assert t is not None
        return t

    def code(self, team: str) -> list[int]:
        return list(self.t(team).code)

    def wrong(self, team: str) -> list[int]:
        right = self.t(team).code
        return list(next(code for code in ALL_CODES if code != right))

    def decider(self, team: str) -> str:
        return self.state.table.decider(TEAM[team], self.state.current.number)

    def tokens(self, team: str) -> tuple[int, int]:
        return self.state.tokens[TEAM[team]]

    def view(self, seat: str | None, open_spectator: bool = False) -> dict[str, Any]:
        return RULES.view(self.state, Viewer(seat, open_spectator))

    # -- steps ---------------------------------------------------------------------------------
    def clues(self) -> list[str]:
        self.clue_count += 1
        n = self.clue_count
        return [f"zork{n}a", f"zork{n}b", f"zork{n}c"]

    def transmit(self, team: str, clues: list[str] | None = None) -> Applied[GameState]:
        raw = {"type": "transmit", "clues": clues or self.clues()}
        return self.do(self.t(team).encryptor, raw)

    def decode(self, team: str, right: bool = True) -> Applied[GameState]:
        code = self.code(team) if right else self.wrong(team)
        return self.do(self.decider(team), {"type": "lock", "target": "own", "code": code})

    def intercept(self, team: str, right: bool = False) -> Applied[GameState]:
        """`team` intercepts the enemy transmission."""
        enemy = "black" if team == "white" else "white"
        code = self.code(enemy) if right else self.wrong(enemy)
        return self.do(self.decider(team), {"type": "lock", "target": "enemy", "code": code})

    def play_round(
        self,
        decoded: tuple[bool, bool] = (True, True),
        intercepted: tuple[bool, bool] = (False, False),
    ) -> None:
        """A whole round; `intercepted[i]`: team i intercepts the enemy transmission right."""
        number = self.state.current.number
        teams = [team for team in ("white", "black") if self.state.table.transmits[TEAM[team]]]
        for team in teams:
            self.transmit(team)
        if self.state.table.options.classic:  # one transmission after the other
            for team in teams:
                self.decode(team, decoded[TEAM[team]])
                if number > 1:
                    enemy = "black" if team == "white" else "white"
                    self.intercept(enemy, intercepted[TEAM[enemy]])
            return
        for team in teams:
            self.decode(team, decoded[TEAM[team]])
        if number > 1:
            for team in ("white", "black"):
                if self.state.table.transmits[1 - TEAM[team]]:
                    self.intercept(team, intercepted[TEAM[team]])

    def timeout(self, at: float) -> Applied[GameState]:
        return self.do(SYSTEM_SEAT, {"type": "timeout"}, at)
