"""Setting up a match and folding in its actions: set a code, guess, mark, toggle the counter.

Round ends are decided here too: five blacks (or the size's full set) or the last row; with
manual marking every row is then checked, and any wrong marking costs the maker
MARKING_PENALTY points, given to the breaker, and the round is replayed with a new code.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from codebreakers.games.base import Applied, Rejection
from codebreakers.games.mastermind.actions import Guess, Mark, SetCode, ShowPossible
from codebreakers.games.mastermind.options import check_options, to_options
from codebreakers.games.mastermind.rejections import RejectionCode, reject
from codebreakers.games.mastermind.scoring import Keys, score
from codebreakers.games.mastermind.state import (
    FOUND,
    MARKING_PENALTY,
    MISMARKED,
    NOT_FOUND,
    TEAMS,
    Attempt,
    Code,
    Finished,
    GameState,
    Outcome,
    Row,
)

SEAT_MAX_CHARS = 64


def _seats(teams: object) -> tuple[str, str] | Rejection:
    if not isinstance(teams, Mapping) or set(teams) != set(TEAMS):
        return reject(RejectionCode.INVALID_TEAMS, "teams: a and b")
    seats: list[str] = []
    for name in TEAMS:
        members = teams[name]
        if (
            not isinstance(members, list)
            or len(members) != 1
            or not isinstance(members[0], str)
            or not 0 < len(members[0]) <= SEAT_MAX_CHARS
        ):
            return reject(RejectionCode.INVALID_TEAMS, f"{name}: a list of one seat id")
        seats.append(members[0])
    if seats[0] == seats[1] or "system" in seats:
        return reject(RejectionCode.INVALID_TEAMS, "two different seats, never 'system'")
    return seats[0], seats[1]


def new_game(setup: Mapping[str, Any]) -> GameState | Rejection:
    """The first state: team "a" breaks in round 1 and its opponent makes the first code."""
    if not isinstance(setup, Mapping):
        return reject(RejectionCode.INVALID_SETUP, "setup must be an object")
    checked = check_options(setup.get("options", {}))
    if isinstance(checked, Rejection):
        return checked
    seed = setup.get("seed")
    if type(seed) is not int:
        return reject(RejectionCode.INVALID_SETUP, "seed: a whole number")
    seats = _seats(setup.get("teams"))
    if isinstance(seats, Rejection):
        return seats
    return GameState(to_options(checked), seats, seed, Attempt(round=1, replay=0, breaker=0))


def random_code(state: GameState, attempt: Attempt) -> Code:
    """A uniformly random code drawn from the match seed, fixed per (round, replay).

    A string seed makes `random.Random` hash it with SHA-512, so the same record draws the same
    code on every machine and Python version; nobody sees the seed.
    """
    opts = state.options
    rng = random.Random(f"mastermind:{state.seed}:{attempt.round}:{attempt.replay}")
    return tuple(rng.randrange(opts.colours) for _ in range(opts.pegs))


def _fits(state: GameState, code: Code) -> Code | Rejection:
    opts = state.options
    if len(code) != opts.pegs:
        return reject(RejectionCode.WRONG_CODE_LENGTH, f"{opts.pegs} pegs")
    if max(code) >= opts.colours:
        return reject(RejectionCode.COLOUR_OUT_OF_RANGE, f"colours 0 to {opts.colours - 1}")
    return code


def set_code(state: GameState, team: int, action: SetCode) -> Applied[GameState] | Rejection:
    attempt = state.current
    assert attempt is not None
    if team != attempt.maker:
        return reject(RejectionCode.NOT_MAKER)
    if attempt.code is not None:
        return reject(RejectionCode.WRONG_PHASE, "the code is already set")
    # One of the two shapes: a code, or `random: true`.
    code = (
        _fits(state, action.code) if isinstance(action.code, tuple) else random_code(state, attempt)
    )
    if isinstance(code, Rejection):
        return code
    return Applied(replace(state, current=replace(attempt, code=code)))


def guess(state: GameState, team: int, action: Guess) -> Applied[GameState] | Rejection:
    attempt = state.current
    assert attempt is not None
    if team != attempt.breaker:
        return reject(RejectionCode.NOT_BREAKER)
    if attempt.code is None or (attempt.rows and attempt.rows[-1].keys is None):
        return reject(RejectionCode.WRONG_PHASE, "waiting for the maker")
    code = _fits(state, action.code)
    if isinstance(code, Rejection):
        return code
    truth = score(code, attempt.code)
    keys = None if state.options.manual_marking else truth
    row = Row(code, keys, truth)
    return _after_row(state, replace(attempt, rows=(*attempt.rows, row)))


def mark(state: GameState, team: int, action: Mark) -> Applied[GameState] | Rejection:
    attempt = state.current
    assert attempt is not None
    if team != attempt.maker:
        return reject(RejectionCode.NOT_MAKER)
    if not attempt.rows or attempt.rows[-1].keys is not None:
        return reject(RejectionCode.WRONG_PHASE, "no row waits for keys")
    keys = Keys(action.black, action.white)
    if keys.black + keys.white > state.options.pegs:
        return reject(RejectionCode.TOO_MANY_KEYS, f"at most {state.options.pegs} keys in all")
    row = replace(attempt.rows[-1], keys=keys)
    return _after_row(state, replace(attempt, rows=(*attempt.rows[:-1], row)))


def show_possible(state: GameState, seat: str, action: ShowPossible) -> Applied[GameState]:
    """The seat's own preference: show the "codes still possible" counter when it breaks."""
    chosen = state.show_possible | {seat} if action.on else state.show_possible - {seat}
    return Applied(replace(state, show_possible=chosen))


def _after_row(state: GameState, attempt: Attempt) -> Applied[GameState]:
    """Keep playing, or end the attempt once the last row has its keys."""
    last = attempt.rows[-1]
    won = last.keys == Keys(state.options.pegs, 0)
    if last.keys is None or (not won and len(attempt.rows) < state.options.rows):
        return Applied(replace(state, current=attempt))
    return _finish(state, attempt, won)


def _finish(state: GameState, attempt: Attempt, won: bool) -> Applied[GameState]:
    breaker, maker = attempt.breaker, attempt.maker
    wrong = tuple(i for i, row in enumerate(attempt.rows) if row.keys != row.truth)
    points = list(state.points)
    if wrong:
        points[maker] -= MARKING_PENALTY
        points[breaker] += MARKING_PENALTY
        done = Finished(attempt, MISMARKED, MARKING_PENALTY, wrong)
        after = replace(
            state,
            current=Attempt(attempt.round, attempt.replay + 1, breaker),
            finished=(*state.finished, done),
            points=(points[0], points[1]),
        )
        return Applied(after)
    gained = state.options.rows - len(attempt.rows) if won else 0
    points[breaker] += gained
    won_rounds = list(state.rounds_won)
    won_rounds[breaker if won else maker] += 1
    done = Finished(attempt, FOUND if won else NOT_FOUND, gained)
    last_round = attempt.round == state.options.rounds
    after = replace(
        state,
        current=None if last_round else Attempt(attempt.round + 1, 0, maker),
        finished=(*state.finished, done),
        rounds_won=(won_rounds[0], won_rounds[1]),
        points=(points[0], points[1]),
    )
    if last_round:
        after = replace(after, outcome=_outcome(after))
    return Applied(after)


def _outcome(state: GameState) -> Outcome:
    """More rounds won; equal rounds, more points; still equal, a draw."""
    for reason, (a, b) in (("rounds", state.rounds_won), ("points", state.points)):
        if a != b:
            return Outcome(0 if a > b else 1, reason)
    return Outcome(None, "draw")
