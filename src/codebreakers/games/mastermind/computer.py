"""The computer player's move, from nothing but its seat's view (ARCHITECTURE.md lesson 9).

As codemaker it asks the engine for a uniformly random code (`set_code` with `random: true`,
drawn from the match seed, which the computer never sees) and, with manual marking, marks
honestly from the code its view shows. As codebreaker it plays the solver's guess for the rows
its view shows. A `bots/` adapter wraps this function in the server's Bot protocol.
"""

from __future__ import annotations

from typing import Any

from codebreakers.games.base import JSON
from codebreakers.games.mastermind.scoring import Keys, score
from codebreakers.games.mastermind.solver import Row, solver_for


def computer_move(view: JSON) -> JSON | None:
    """The action this seat should send now, or None when it is not its turn."""
    seat = view["you"]["seat"]
    tasks = [w["task"] for w in view["waiting_for"] if w["seat"] == seat]
    if not tasks:
        return None
    current: dict[str, Any] = view["current"]
    if tasks[0] == "set_code":
        return {"type": "set_code", "random": True}
    if tasks[0] == "mark":
        keys = score(current["rows"][-1]["guess"], current["code"])
        return {"type": "mark", "black": keys.black, "white": keys.white}
    options = view["options"]
    rows: list[Row] = [(tuple(r["guess"]), Keys(r["black"], r["white"])) for r in current["rows"]]
    guess = solver_for(options["pegs"], options["colours"]).next_guess(rows)
    return {"type": "guess", "code": list(guess)}
