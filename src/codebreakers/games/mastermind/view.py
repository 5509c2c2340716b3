"""What one viewer may see, built by listing it (ARCHITECTURE.md lesson 4).

The secret code is listed for the round's maker only (and for open spectators) until that
playing of the round is over; then everyone sees it in `history`. The seed is never listed.
The "codes still possible" count is listed for the breaker who switched it on, computed from the
keys the breaker was shown.
"""

from __future__ import annotations

from codebreakers.games.base import JSON, Viewer
from codebreakers.games.mastermind.compare import comparison
from codebreakers.games.mastermind.solver import Row as SolverRow
from codebreakers.games.mastermind.solver import solver_for
from codebreakers.games.mastermind.state import (
    GUESS,
    MARK,
    SET_CODE,
    TEAMS,
    Attempt,
    Finished,
    GameState,
    Row,
)


def _row(row: Row, with_truth: bool) -> JSON:
    listed: JSON = {
        "guess": list(row.guess),
        "black": row.keys.black if row.keys else None,
        "white": row.keys.white if row.keys else None,
    }
    if with_truth:
        listed["true_black"] = row.truth.black
        listed["true_white"] = row.truth.white
    return listed


def _roles(attempt: Attempt) -> JSON:
    return {
        "round": attempt.round,
        "replay": attempt.replay,
        "breaker": TEAMS[attempt.breaker],
        "maker": TEAMS[attempt.maker],
    }


def _current(state: GameState, attempt: Attempt, viewer: Viewer, team: int | None) -> JSON:
    # An open spectator is never a seat: a seated breaker asked for with `open_spectator` sees
    # what its seat sees (as in Decrypto's views), never the code.
    sees_code = (viewer.open_spectator and team is None) or team == attempt.maker
    breaking = team == attempt.breaker
    counter_on = breaking and viewer.seat in state.show_possible
    shown: list[SolverRow] = [(r.guess, r.keys) for r in attempt.rows if r.keys is not None]
    opts = state.options
    return {
        **_roles(attempt),
        "code_set": attempt.code is not None,
        "code": list(attempt.code) if sees_code and attempt.code is not None else None,
        "rows": [_row(r, with_truth=False) for r in attempt.rows],
        "rows_left": opts.rows - len(attempt.rows),
        "possible": solver_for(opts.pegs, opts.colours).possible(shown) if counter_on else None,
    }


def _finished(done: Finished, state: GameState) -> JSON:
    attempt = done.attempt
    return {
        **_roles(attempt),
        "code": list(attempt.code) if attempt.code is not None else None,
        "rows": [_row(r, with_truth=state.options.manual_marking) for r in attempt.rows],
        "result": done.result,
        "points": done.points,
        "wrong_rows": [i + 1 for i in done.wrong_rows],
        "comparison": comparison(done, state.options),
    }


def _waiting(state: GameState) -> list[JSON]:
    attempt = state.current
    if attempt is None:
        return []
    task = state.phase
    who = attempt.breaker if task == GUESS else attempt.maker
    assert task in (SET_CODE, GUESS, MARK)
    return [{"seat": state.seats[who], "task": task}]


def build_view(state: GameState, viewer: Viewer) -> JSON:
    team = state.team_of(viewer.seat) if viewer.seat is not None else None
    attempt = state.current
    role = None
    if attempt is not None and team is not None:
        role = "breaker" if team == attempt.breaker else "maker"
    return {
        "game": "mastermind",
        "options": state.options.to_json(),
        "phase": state.phase,
        "you": {
            "seat": viewer.seat,
            "team": TEAMS[team] if team is not None else None,
            "role": role,
            "show_possible": viewer.seat in state.show_possible,
        },
        "teams": {
            name: {
                "seat": state.seats[i],
                "rounds_won": state.rounds_won[i],
                "points": state.points[i],
            }
            for i, name in enumerate(TEAMS)
        },
        "current": _current(state, attempt, viewer, team) if attempt is not None else None,
        "history": [_finished(done, state) for done in state.finished],
        "waiting_for": _waiting(state),
        "outcome": outcome_json(state),
    }


def outcome_json(state: GameState) -> JSON | None:
    """Who won the match and how: on rounds, on points, or a draw."""
    outcome = state.outcome
    if outcome is None:
        return None
    return {
        "winner": TEAMS[outcome.winner] if outcome.winner is not None else None,
        "reason": outcome.reason,
        "rounds_won": dict(zip(TEAMS, state.rounds_won, strict=True)),
        "points": dict(zip(TEAMS, state.points, strict=True)),
    }
