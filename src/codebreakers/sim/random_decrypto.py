"""A random legal Decrypto table: every seat picks among the moves the rules allow it right now.

Used by `codebreakers simulate decrypto` (the engine's benchmark) and by the property tests.
The players read the state directly (they are a load, not bots). Clues are random consonant
strings, so they never clash with a keyword; answers are uniform over the 24 codes, except that a
team decodes its own transmission right with probability `skill` (a team understands its own
encryptor: this gives games of realistic length instead of ending on two ⚫ in round 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from codebreakers.games.base import JSON, SYSTEM_SEAT, Applied, Rejection
from codebreakers.games.decrypto import RULES, GameState
from codebreakers.games.decrypto.codes import ALL_CODES
from codebreakers.games.decrypto.state import ROUND, TIEBREAK_GUESS, TIEBREAK_REVIEW
from codebreakers.games.decrypto.timers import interception_opened

CONSONANTS = "bcdfghjklmnpqrstvwxz"
DEFAULT_SKILL = 0.8
# Chance of a side move (a proposal, a note, a draft, a guess review) instead of a required one.
SIDE_MOVE = 0.3
# Step of the simulated clock between two actions, in seconds.
TICK_S = 1.0

Move = tuple[str, JSON]


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
        return "".join(self.rng.choice(CONSONANTS) for _ in range(7))

    def code(self, right: tuple[int, int, int] | None = None) -> list[int]:
        if right is not None and self.rng.random() < self.skill:
            return list(right)
        return list(ALL_CODES[self.rng.randrange(24)])

    def _round_moves(self, state: GameState) -> tuple[list[Move], list[Move]]:
        table = state.table
        rnd = state.current
        required: list[Move] = []
        side: list[Move] = []
        for t in rnd.transmissions:
            if t is None:
                continue
            if t.clues is None:
                clues = [self.clue(), self.clue(), self.clue()]
                required.append((t.encryptor, {"type": "transmit", "clues": clues}))
                side.append((t.encryptor, {"type": "draft", "clues": [*clues[:2], ""]}))
                continue
            if t.read_at is not None and not t.decode.locked:
                code = self.code(t.code)
                required.append((t.decider, {"type": "lock", "target": "own", "code": code}))
                mates = [s for s in table.seats[t.team] if s != t.encryptor]
                proposal = {"type": "propose", "target": "own", "code": self.code(t.code)}
                side.append((self.rng.choice(mates), proposal))
            opened = interception_opened(rnd, t, table.options.classic)
            if opened is not None and t.interception is not None and not t.interception.locked:
                enemy = 1 - t.team
                decider = table.decider(enemy, rnd.number)
                required.append((decider, {"type": "lock", "target": "enemy", "code": self.code()}))
                proposal = {"type": "propose", "target": "enemy", "code": self.code()}
                side.append((self.rng.choice(table.seats[enemy]), proposal))
        return required, side

    def _tiebreak_moves(self, state: GameState) -> tuple[list[Move], list[Move]]:
        tb = state.tiebreak
        assert tb is not None
        table = state.table
        required: list[Move] = []
        side: list[Move] = []
        if state.phase == TIEBREAK_GUESS:
            for team in (0, 1):
                if tb.guesses[team] is None:
                    words = [
                        k if self.rng.random() < 0.3 else self.rng.choice(self.pool or ("x",))
                        for k in table.keywords[1 - team]
                    ]
                    move = {"type": "guess_keywords", "words": words}
                    required.append((table.decider(team, state.current.number), move))
        elif state.phase == TIEBREAK_REVIEW:
            for team in (0, 1):
                if not tb.reviewed[team]:
                    seat = self.rng.choice(table.seats[team])
                    required.append((seat, {"type": "review_done"}))
                    accept = {"type": "accept_guess", "number": self.rng.randint(1, 4)}
                    side.append((seat, accept | {"accept": True}))
        return required, side

    def moves(self, state: GameState) -> tuple[list[Move], list[Move]]:
        """The moves the game needs now, and optional side moves."""
        if state.phase == ROUND:
            required, side = self._round_moves(state)
        else:
            required, side = self._tiebreak_moves(state)
        seats = list(state.table.team_of)
        side.append(
            (
                self.rng.choice(seats),
                {"type": "note", "number": self.rng.randint(1, 4), "text": self.clue()},
            )
        )
        return required, side

    def step(self, state: GameState, now: float) -> tuple[Move, float]:
        """One move and the clock time it is made at (a timeout once a deadline has passed)."""
        deadline = RULES.next_deadline(state)
        if deadline is not None and self.rng.random() < 0.2:
            return (SYSTEM_SEAT, {"type": "timeout"}), max(now, deadline)
        required, side = self.moves(state)
        if not required and deadline is not None:
            return (SYSTEM_SEAT, {"type": "timeout"}), max(now, deadline)
        pick = side if self.rng.random() < SIDE_MOVE or not required else required
        return self.rng.choice(pick), now + TICK_S


@dataclass
class Played:
    state: GameState
    actions: list[JSON]
    events: int


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
    events = 0
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
        events += len(applied.events)
        actions.append({"seat": seat, "action": action, "at": now})
        if after_each is not None:
            after_each(state)
    return Played(state, actions, events)
