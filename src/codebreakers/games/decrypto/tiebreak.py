"""Tie-break actions: each team's decider guesses the enemy keywords; the owners review guesses."""

from __future__ import annotations

from codebreakers.games.base import Applied, Rejection
from codebreakers.games.decrypto.actions import AcceptGuess, GuessKeywords, ReviewDone
from codebreakers.games.decrypto.ending import exact_matches, finish_tiebreak
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.state import (
    TIEBREAK_GUESS,
    TIEBREAK_REVIEW,
    GameState,
    Tiebreak,
    evolve,
)


def record_guesses(state: GameState, team: int, guesses: tuple[str, ...], now: float) -> GameState:
    """Store one team's guesses; with both in, the owners start reviewing."""
    tb = state.tiebreak
    assert tb is not None
    both = (guesses, tb.guesses[1]) if team == 0 else (tb.guesses[0], guesses)
    if both[0] is not None and both[1] is not None:
        tb = evolve(tb, guesses=both, review_started_at=now)
        return evolve(state, phase=TIEBREAK_REVIEW, tiebreak=tb)
    return evolve(state, tiebreak=evolve(tb, guesses=both))


def guess_keywords(
    state: GameState, seat: str, team: int, action: GuessKeywords, now: float
) -> Applied[GameState] | Rejection:
    if state.phase != TIEBREAK_GUESS or state.tiebreak is None:
        return reject(RejectionCode.WRONG_PHASE, state.phase)
    if seat != state.table.decider(team, state.current.number):
        return reject(RejectionCode.NOT_DECIDER)
    if state.tiebreak.guesses[team] is not None:
        return reject(RejectionCode.ALREADY_GUESSED)
    return Applied(record_guesses(state, team, action.words, now))


def _reviewing(state: GameState, team: int) -> Tiebreak | Rejection:
    if state.phase != TIEBREAK_REVIEW or state.tiebreak is None:
        return reject(RejectionCode.WRONG_PHASE, state.phase)
    if state.tiebreak.reviewed[team]:
        return reject(RejectionCode.ALREADY_REVIEWED)
    return state.tiebreak


def accept_guess(
    state: GameState, seat: str, team: int, action: AcceptGuess, now: float
) -> Applied[GameState] | Rejection:
    """The keywords' owners accept (or take back) a near miss in the enemy's guess."""
    tb = _reviewing(state, team)
    if isinstance(tb, Rejection):
        return tb
    guesser = 1 - team
    index = action.number - 1
    if exact_matches(state, guesser)[index] and not action.accept:
        return reject(RejectionCode.EXACT_MATCH)
    row = list(tb.accepted[guesser])
    row[index] = action.accept
    accepted = (tb.accepted[0], tuple(row)) if guesser == 1 else (tuple(row), tb.accepted[1])
    return Applied(evolve(state, tiebreak=evolve(tb, accepted=accepted)))


def finish_review(state: GameState, team: int) -> GameState:
    tb = state.tiebreak
    assert tb is not None
    reviewed = (True, tb.reviewed[1]) if team == 0 else (tb.reviewed[0], True)
    state = evolve(state, tiebreak=evolve(tb, reviewed=reviewed))
    if all(reviewed):
        return finish_tiebreak(state)
    return state


def review_done(
    state: GameState, seat: str, team: int, action: ReviewDone, now: float
) -> Applied[GameState] | Rejection:
    tb = _reviewing(state, team)
    if isinstance(tb, Rejection):
        return tb
    return Applied(finish_review(state, team))
