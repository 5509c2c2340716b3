"""A random legal Decrypto table: every seat picks among the moves the rules allow it right now.

Used by `codebreakers simulate decrypto` (the engine's benchmark) and by the property tests.
The players read the state directly (they are a load, not bots). Clues are random hex strings,
so they never clash with a keyword; answers are uniform over the 24 codes, except that a
team decodes its own transmission right with probability `skill` (a team understands its own
encryptor: this gives games of realistic length instead of ending on two ⚫ in round 2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from codebreakers.games.base import JSON, SYSTEM_SEAT, Applied, Rejection
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.state import ROUND, TIEBREAK_GUESS, TIEBREAK_REVIEW
from codebreakers.games.decrypto.timers import interception_opened

DEFAULT_SKILL = 0.8
# Chance of a side move (a proposal, a note, a draft, a guess review) instead of a required one.
SIDE_MOVE = 0.3
# Step of the simulated clock between two actions, in seconds.
TICK_S = 1.0

_T = TypeVar("_T")
Move = tuple[str, JSON]
# (seat, or the seats one of which may do it; what to do; the transmission or team it is about)
Task = tuple[str | tuple[str, ...], str, Any]


def teams_for(players: int) -> tuple[dict[str, list[str]], bool]:
    """Seat ids for `players` (3: the pair and the solo of the 3-player variant)."""
    if players == 3:
        return {"white": ["w1", "w2"], "black": ["b1"]}, True
    if not 4 <= players <= 8:
        raise ValueError("players: 3, or 4 to 8")
    white = (players + 1) // 2
    return {
        "white": [f"w{i}" for i in range(1, white + 1)],
        "black": [f"b{i}" for i in range(1, players - white + 1)],
    }, False


@dataclass
class RandomTable:
    """Random players for one game; `rng` decides every choice, so a seed replays the game."""

    rng: random.Random
    skill: float = DEFAULT_SKILL
    pool: tuple[str, ...] = ()

    def clue(self) -> str:
        """Nine hex digits: no keyword is spelt with a-f alone, and a repeat is unlikely."""
        return f"{self.rng.getrandbits(36):09x}"

    def pick(self, items: Sequence[_T]) -> _T:
        """`rng.choice`, cheaper (the simulation makes one or two picks per action)."""
        return items[int(self.rng.random() * len(items))]

    def code(self, right: tuple[int, int, int] | None = None) -> list[int]:
        if right is not None and self.rng.random() < self.skill:
            return list(right)
        return list(self.pick(ALL_CODES))

    def _round_tasks(self, state: GameState, side: bool) -> list[Task]:
        """The moves the round needs now (`side`: the optional ones: drafts and proposals)."""
        table = state.table
        rnd = state.current
        tasks: list[Task] = []
        for t in rnd.transmissions:
            if t is None:
                continue
            if t.clues is None:
                tasks.append((t.encryptor, "draft" if side else "transmit", t))
                continue
            if t.read_at is not None and not t.decode.locked:
                if side:
                    mates = tuple(s for s in table.seats[t.team] if s != t.encryptor)
                    tasks.append((mates, "propose_own", t))
                else:
                    tasks.append((t.decider, "lock_own", t))
            opened = interception_opened(rnd, t, table.options.classic)
            if opened is not None and t.interception is not None and not t.interception.locked:
                enemy = 1 - t.team
                if side:
                    tasks.append((table.seats[enemy], "propose_enemy", t))
                else:
                    tasks.append((table.decider(enemy, rnd.number), "lock_enemy", t))
        return tasks

    def _tiebreak_tasks(self, state: GameState, side: bool) -> list[Task]:
        tb = state.tiebreak
        assert tb is not None
        table = state.table
        tasks: list[Task] = []
        for team in (0, 1):
            if state.phase == TIEBREAK_GUESS and tb.guesses[team] is None and not side:
                decider = table.decider(team, state.current.number)
                tasks.append((decider, "guess_keywords", team))
            elif state.phase == TIEBREAK_REVIEW and not tb.reviewed[team]:
                tasks.append((table.seats[team], "accept_guess" if side else "review_done", team))
        return tasks

    def build(self, state: GameState, kind: str, about: Any) -> JSON:
        """The action for a task picked by `step` (built only once picked: clues cost time)."""
        if kind == "transmit":
            return {"type": "transmit", "clues": [self.clue(), self.clue(), self.clue()]}
        if kind == "draft":
            return {"type": "draft", "clues": [self.clue(), self.clue(), ""]}
        if kind in ("lock_own", "propose_own"):
            return {"type": kind[: kind.index("_")], "target": "own", "code": self.code(about.code)}
        if kind in ("lock_enemy", "propose_enemy"):
            return {"type": kind[: kind.index("_")], "target": "enemy", "code": self.code()}
        if kind == "guess_keywords":
            pool = self.pool or ("x",)
            keywords = state.table.keywords[1 - about]
            words = [k if self.rng.random() < 0.3 else self.pick(pool) for k in keywords]
            return {"type": "guess_keywords", "words": words}
        if kind == "accept_guess":
            return {
                "type": "accept_guess",
                "number": 1 + int(self.rng.random() * 4),
                "accept": True,
            }
        if kind == "note":
            return {"type": "note", "number": 1 + int(self.rng.random() * 4), "text": self.clue()}
        return {"type": kind}

    def step(self, state: GameState, now: float) -> tuple[Move, float]:
        """One move and the clock time it is made at (a timeout once a deadline has passed)."""
        deadline = RULES.next_deadline(state)
        if deadline is not None and self.rng.random() < 0.2:
            return (SYSTEM_SEAT, {"type": "timeout"}), max(now, deadline)
        side = self.rng.random() < SIDE_MOVE
        tasks = self._tasks(state, side)
        if not side and not tasks:
            if deadline is not None:
                return (SYSTEM_SEAT, {"type": "timeout"}), max(now, deadline)
            side, tasks = True, self._tasks(state, True)
        if side:
            tasks.append((state.table.all_seats, "note", None))
        seats, kind, about = self.pick(tasks)
        seat = seats if isinstance(seats, str) else self.pick(seats)
        return (seat, self.build(state, kind, about)), now + TICK_S

    def _tasks(self, state: GameState, side: bool) -> list[Task]:
        if state.phase == ROUND:
            return self._round_tasks(state, side)
        return self._tiebreak_tasks(state, side)


@dataclass
class Played:
    state: GameState
    actions: list[JSON]


def play(
    setup: JSON,
    rng: random.Random,
    skill: float = DEFAULT_SKILL,
    after_each: Any = None,
    max_actions: int = 10_000,
) -> Played:
    """Play one game to its end; `after_each(state)` runs after every applied action."""
    state = RULES.new_game(setup)
    if isinstance(state, Rejection):
        raise ValueError(f"setup refused: {state.code} {state.detail}")
    table = RandomTable(rng, skill, state.table.keywords[0] + state.table.keywords[1])
    now = float(setup["now"])
    actions: list[JSON] = []
    while not RULES.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError("the game did not end")
        (seat, raw), now = table.step(state, now)
        action = RULES.parse_action(raw)
        if isinstance(action, Rejection):
            raise AssertionError(f"random move malformed: {action}")
        applied = RULES.apply(state, seat, action, now)
        if isinstance(applied, Rejection):
            raise AssertionError(f"random legal move refused: {seat} {raw} {applied}")
        assert isinstance(applied, Applied)
        state = applied.state
        actions.append({"seat": seat, "action": action.to_json(), "at": now})
        if after_each is not None:
            after_each(state)
    return Played(state, actions)
