"""Tie-break actions: each team's decider guesses the enemy keywords; the owners review guesses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codebreakers.games.base import JSON, Applied, Rejection
from codebreakers.games.decrypto import rejections as R
from codebreakers.games.decrypto.ending import exact_matches, finish_tiebreak
from codebreakers.games.decrypto.state import (
    TEAMS,
    TIEBREAK_GUESS,
    TIEBREAK_REVIEW,
    GameState,
    Tiebreak,
    evolve,
)

Action = Mapping[str, Any]


def record_guesses(
    state: GameState, team: int, guesses: tuple[str, ...], now: float, events: list[JSON]
) -> GameState:
    """Store one team's guesses; with both in, the owners start reviewing."""
    tb = state.tiebreak
    assert tb is not None
    both = (guesses, tb.guesses[1]) if team == 0 else (tb.guesses[0], guesses)
    events.append({"type": "guessed", "team": TEAMS[team]})
    if both[0] is not None and both[1] is not None:
        events.append({"type": "review_started"})
        tb = evolve(tb, guesses=both, review_started_at=now)
        return evolve(state, phase=TIEBREAK_REVIEW, tiebreak=tb)
    return evolve(state, tiebreak=evolve(tb, guesses=both))


def guess_keywords(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    if state.phase != TIEBREAK_GUESS or state.tiebreak is None:
        return R.reject(R.WRONG_PHASE, state.phase)
    if seat != state.table.decider(team, state.current.number):
        return R.reject(R.NOT_DECIDER)
    if state.tiebreak.guesses[team] is not None:
        return R.reject(R.ALREADY_GUESSED)
    events: list[JSON] = []
    state = record_guesses(state, team, tuple(action["words"]), now, events)
    return Applied(state, tuple(events))


def _reviewing(state: GameState, team: int) -> Tiebreak | Rejection:
    if state.phase != TIEBREAK_REVIEW or state.tiebreak is None:
        return R.reject(R.WRONG_PHASE, state.phase)
    if state.tiebreak.reviewed[team]:
        return R.reject(R.ALREADY_REVIEWED)
    return state.tiebreak


def accept_guess(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    """The keywords' owners accept (or take back) a near miss in the enemy's guess."""
    tb = _reviewing(state, team)
    if isinstance(tb, Rejection):
        return tb
    guesser = 1 - team
    index = action["number"] - 1
    if exact_matches(state, guesser)[index] and not action["accept"]:
        return R.reject(R.EXACT_MATCH)
    row = list(tb.accepted[guesser])
    row[index] = action["accept"]
    accepted = (tb.accepted[0], tuple(row)) if guesser == 1 else (tuple(row), tb.accepted[1])
    event = {"type": "guess_reviewed", "team": TEAMS[team], "number": action["number"]}
    return Applied(evolve(state, tiebreak=evolve(tb, accepted=accepted)), (event,))


def finish_review(state: GameState, team: int, events: list[JSON]) -> GameState:
    tb = state.tiebreak
    assert tb is not None
    reviewed = (True, tb.reviewed[1]) if team == 0 else (tb.reviewed[0], True)
    events.append({"type": "review_done", "team": TEAMS[team]})
    state = evolve(state, tiebreak=evolve(tb, reviewed=reviewed))
    if all(reviewed):
        return finish_tiebreak(state, events)
    return state


def review_done(
    state: GameState, seat: str, team: int, action: Action, now: float
) -> Applied[GameState] | Rejection:
    tb = _reviewing(state, team)
    if isinstance(tb, Rejection):
        return tb
    events: list[JSON] = []
    return Applied(finish_review(state, team, events), tuple(events))
