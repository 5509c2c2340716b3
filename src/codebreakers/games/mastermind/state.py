"""The Mastermind game state: small immutable dataclasses, replaced (never mutated) by `apply`.

A match is a sequence of rounds; a round may be played more than once when manual marking was
wrong (each playing is an `Attempt`). Team "a" breaks in round 1 and the roles swap every round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codebreakers.games.mastermind.options import Options
from codebreakers.games.mastermind.scoring import Keys

TEAMS = ("a", "b")
Code = tuple[int, ...]

# Phases, as the view names them.
SET_CODE = "set_code"
GUESS = "guess"
MARK = "mark"
OVER = "over"

# How a finished attempt ended (stable: stored in views and records).
FOUND = "found"
NOT_FOUND = "not_found"
MISMARKED = "mismarked"

MARKING_PENALTY = 3


@dataclass(frozen=True, slots=True)
class Row:
    """One guess: the keys the breaker was shown (None while the maker marks) and the true keys."""

    guess: Code
    keys: Keys | None
    truth: Keys


@dataclass(frozen=True, slots=True)
class Attempt:
    """One playing of a round: who breaks, the secret code once set, the rows so far."""

    round: int  # 1-based
    replay: int  # 0, then 1 after a first replay for wrong marking, ...
    breaker: int  # index into TEAMS
    code: Code | None = None
    rows: tuple[Row, ...] = ()

    @property
    def maker(self) -> int:
        return 1 - self.breaker


@dataclass(frozen=True)
class Finished:
    """An attempt that is over, with its result; `memo` caches the solver comparison."""

    attempt: Attempt
    result: str  # FOUND, NOT_FOUND or MISMARKED
    points: int  # what the breaker scored (rows - k when found)
    wrong_rows: tuple[int, ...] = ()  # 0-based rows the maker marked wrongly
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int | None  # index into TEAMS, None for a draw
    reason: str  # "rounds", "points" or "draw"


@dataclass(frozen=True, slots=True)
class GameState:
    options: Options
    seats: tuple[str, str]  # the seat of team "a", of team "b"
    seed: int
    current: Attempt | None  # None once the match is over
    finished: tuple[Finished, ...] = ()
    rounds_won: tuple[int, int] = (0, 0)
    points: tuple[int, int] = (0, 0)
    show_possible: frozenset[str] = frozenset()
    outcome: Outcome | None = None

    @property
    def phase(self) -> str:
        attempt = self.current
        if attempt is None:
            return OVER
        if attempt.code is None:
            return SET_CODE
        if attempt.rows and attempt.rows[-1].keys is None:
            return MARK
        return GUESS

    def team_of(self, seat: str) -> int | None:
        return self.seats.index(seat) if seat in self.seats else None
