"""After a round: how each of the breaker's rows compared with the solver's choice.

For every row, from the same position (the earlier rows with their true keys), the number of
codes still possible after the breaker's guess and after the solver's guess. It is computed from
true keys, because by then the code is public, and only once per finished round (the result is
cached on the immutable `Finished` record, so replays and views of later states reuse it).
"""

from __future__ import annotations

from codebreakers.games.base import JSON
from codebreakers.games.mastermind.options import Options
from codebreakers.games.mastermind.scoring import score
from codebreakers.games.mastermind.solver import Row, solver_for
from codebreakers.games.mastermind.state import Finished


def comparison(finished: Finished, options: Options) -> list[JSON]:
    cached = finished.memo.get("comparison")
    if cached is None:
        cached = finished.memo["comparison"] = _compare(finished, options)
    return [dict(row) for row in cached]


def _compare(finished: Finished, options: Options) -> list[JSON]:
    code = finished.attempt.code
    assert code is not None
    solver = solver_for(options.pegs, options.colours)
    position: list[Row] = []
    rows: list[JSON] = []
    for row in finished.attempt.rows:
        before = solver.possible(position)
        choice = solver.next_guess(position)
        mine = (row.guess, row.truth)
        rows.append(
            {
                "possible_before": before,
                "possible_after": solver.possible([*position, mine]),
                "solver_guess": list(choice),
                "solver_possible_after": solver.possible(
                    [*position, (choice, score(choice, code))]
                ),
            }
        )
        position.append(mine)
    return rows
