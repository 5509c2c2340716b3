"""The Decrypto game state: immutable dataclasses shared between successive states.

`apply` never mutates a state; it builds a new one that shares every untouched part with the
old (a round's transmissions, the table dealt at the start). Copying only the changed path keeps
an action cheap enough for the simulation's thousands of games per second, and lets the server
keep an old state while computing a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, TypeVar

from codebreakers.games.decrypto.codes import Code
from codebreakers.games.decrypto.options import Options

_T = TypeVar("_T")
_EVOLVERS: dict[type, tuple[attrgetter[Any], dict[str, int]]] = {}


def evolve(obj: _T, **changes: Any) -> _T:
    """`dataclasses.replace` for the classes below, about twice as fast (it runs several times
    per action). Memo fields (compare=False, always last) start empty in the copy."""
    cls = type(obj)
    known = _EVOLVERS.get(cls)
    if known is None:
        names = [f.name for f in fields(cls) if f.compare]  # type: ignore[arg-type]
        known = _EVOLVERS[cls] = (attrgetter(*names), {n: i for i, n in enumerate(names)})
    values = list(known[0](obj))
    for name, value in changes.items():
        values[known[1][name]] = value
    return cls(*values)


TEAMS = ("white", "black")
WHITE, BLACK = 0, 1
Clues = tuple[str, str, str]
Pair = tuple[int, int]

# Phases, as the view names them.
ROUND = "round"
TIEBREAK_GUESS = "tiebreak_guess"
TIEBREAK_REVIEW = "tiebreak_review"
OVER = "over"


@dataclass(slots=True)
class Answer:
    """A team's answer to one transmission: the decode (own team) or the interception (enemy)."""

    proposals: tuple[tuple[str, Code], ...] = ()  # (seat, code), latest proposal last
    locked: bool = False
    code: Code | None = None  # None once locked: no answer (a decide limit ran out)
    locked_at: float | None = None


@dataclass(slots=True)
class Transmission:
    """One team's transmission in one round, from writing the clues to the reveal."""

    team: int
    encryptor: str
    decider: str
    code: Code
    draft: Clues | None = None
    clues: Clues | None = None
    transmitted_at: float | None = None
    read_at: float | None = None  # when its clues became public (classic order: read out)
    decode: Answer = field(default_factory=Answer)
    interception: Answer | None = None  # None when nobody intercepts it (round 1)
    revealed: bool = False
    # Its views by kind of viewer (view.py): a transmission is shared by every state until it
    # changes, and every seat's view is built after each action.
    memo: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)

    def answer(self, own: bool) -> Answer | None:
        return self.decode if own else self.interception

    def with_answer(self, own: bool, answer: Answer) -> Transmission:
        # Spelled out rather than dataclasses.replace: this runs on every proposal and lock.
        return Transmission(
            self.team,
            self.encryptor,
            self.decider,
            self.code,
            self.draft,
            self.clues,
            self.transmitted_at,
            self.read_at,
            answer if own else self.decode,
            self.interception if own else answer,
            self.revealed,
        )

    @property
    def decoded(self) -> bool:
        return self.decode.code == self.code

    @property
    def intercepted(self) -> bool | None:
        if self.interception is None:
            return None
        return self.interception.code == self.code


@dataclass(slots=True)
class Round:
    number: int
    started_at: float
    transmissions: tuple[Transmission | None, Transmission | None]  # by team; None: no transmission
    # The views of the rounds up to this one once it is over, by kind of viewer (view.py): a
    # finished round never changes and is shared by every later state, so it is listed once.
    memo: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def finished(self) -> bool:
        return all(t is None or t.revealed for t in self.transmissions)

    def with_transmission(self, t: Transmission) -> Round:
        both = (t, self.transmissions[1]) if t.team == WHITE else (self.transmissions[0], t)
        return Round(self.number, self.started_at, both)


@dataclass(slots=True)
class Table:
    """Everything fixed when the game starts: options, seating, the deal."""

    options: Options
    seats: tuple[tuple[str, ...], tuple[str, ...]]
    team_of: Mapping[str, int]
    keywords: tuple[tuple[str, ...], tuple[str, ...]]
    codes: tuple[tuple[Code, Code], ...]  # codes[r - 1][team]
    seed: int
    started_at: float
    transmits: tuple[bool, bool]
    all_seats: tuple[str, ...]  # White's then Black's
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def encryptor(self, team: int, number: int) -> str:
        seats = self.seats[team]
        return seats[(number - 1) % len(seats)]

    def decider(self, team: int, number: int) -> str:
        """The teammate across the table from this round's encryptor (never the encryptor)."""
        seats = self.seats[team]
        n = len(seats)
        return seats[((number - 1) % n + (n + 1) // 2) % n]


@dataclass(slots=True)
class Tiebreak:
    """Keyword guessing: each team guesses the other's keywords, the owners review the guesses."""

    started_at: float
    guesses: tuple[tuple[str, ...] | None, tuple[str, ...] | None]  # by guessing team
    accepted: tuple[tuple[bool, ...], tuple[bool, ...]]  # near misses accepted, by guessing team
    reviewed: tuple[bool, bool]  # by owner team (the team whose keywords were guessed)
    cause: str
    reached: tuple[tuple[str, ...], tuple[str, ...]]
    review_started_at: float | None = None


@dataclass(slots=True)
class Outcome:
    winner: int | None
    reason: str
    points: Pair
    rounds: int
    tie_cause: str | None = None
    reached: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    keyword_hits: Pair | None = None


@dataclass(slots=True)
class GameState:
    table: Table
    phase: str
    rounds: tuple[Round, ...]
    tokens: tuple[Pair, Pair]  # by team: (interceptions ⚪, miscommunications ⚫)
    notes: Mapping[str, tuple[str, ...]]  # seat -> its private notes on enemy keywords 1..4
    used_clues: frozenset[str] = frozenset()  # folded clues given so far, by either team
    tiebreak: Tiebreak | None = None
    outcome: Outcome | None = None
    # The parts of its views that are the same for every viewer (view.py).
    memo: dict[object, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def with_round(
        self,
        rnd: Round,
        tokens: tuple[Pair, Pair] | None = None,
        used_clues: frozenset[str] | None = None,
    ) -> GameState:
        """This state with its current round replaced, and the tokens or the clues given so far
        if they changed (spelled out rather than `evolve`: it runs on every action)."""
        return GameState(
            self.table,
            self.phase,
            (*self.rounds[:-1], rnd),
            self.tokens if tokens is None else tokens,
            self.notes,
            self.used_clues if used_clues is None else used_clues,
            self.tiebreak,
            self.outcome,
        )
