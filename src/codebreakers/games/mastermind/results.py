"""Mastermind's results per seat: the outcome, and the rows it took to break codes.

Figures, as code breaker: `codes` played to the end (a round replayed for wrong marking counts
once, its last playing), `broken` of them, `rows_to_break` summed over the broken ones (a
profile divides it by `broken`: the average rows to break a code).
"""

from __future__ import annotations

from codebreakers.games.mastermind.state import FOUND, MISMARKED, TEAMS, GameState
from codebreakers.games.results import GameResults, SeatResult, result_of


def results(state: GameState) -> GameResults | None:
    """Each seat's result and figures; None while the game runs."""
    if state.outcome is None:
        return None
    figures = [{"codes": 0, "broken": 0, "rows_to_break": 0} for _ in TEAMS]
    for done in state.finished:
        if done.result == MISMARKED:
            continue
        mine = figures[done.attempt.breaker]
        mine["codes"] += 1
        if done.result == FOUND:
            mine["broken"] += 1
            mine["rows_to_break"] += len(done.attempt.rows)
    variant = state.options.preset or "custom"
    winner = state.outcome.winner
    return GameResults(
        variant,
        {
            seat: SeatResult(TEAMS[side], result_of(side, winner), figures[side])
            for side, seat in enumerate(state.seats)
        },
    )
