"""Views: the code only for its maker until the round ends, never the seed; counter; comparison."""

from __future__ import annotations

import itertools
import json

import msgspec
from mastermind_table import SEED, Match

from codebreakers.games.base import Viewer
from codebreakers.games.mastermind import RULES
from codebreakers.games.mastermind.scoring import score
from codebreakers.games.mastermind.solver import Row, solver_for

CODE = [6, 6, 7, 7, 6]  # no guess below holds this sequence


def test_the_code_is_listed_for_its_maker_only() -> None:
    match = Match()
    match.set_code(CODE)
    match.guess([0, 0, 1, 1, 2])
    for seat, open_spectator in (("ann", False), (None, False)):
        data = json.dumps(match.view(seat, open_spectator))
        assert "6, 6, 7, 7, 6" not in data and str(SEED) not in data
        assert json.loads(data)["current"]["code"] is None
        assert json.loads(data)["current"]["code_set"] is True
    assert match.view("bob")["current"]["code"] == CODE
    assert match.view(None, open_spectator=True)["current"]["code"] == CODE
    assert str(SEED) not in json.dumps(match.view("bob"))


def test_a_seated_breaker_asked_for_as_an_open_spectator_still_sees_no_code() -> None:
    """An open spectator is never a seat: whatever the server asks, the breaker's view (and
    its bytes) never hold the code."""
    match = Match()
    match.set_code(CODE)
    match.guess([0, 0, 1, 1, 2])
    view = match.view("ann", open_spectator=True)
    assert view["you"]["role"] == "breaker" and view["current"]["code"] is None
    assert "6, 6, 7, 7, 6" not in json.dumps(view)
    (raw,) = RULES.views_json(match.state, [Viewer("ann", True)])
    assert b"[6,6,7,7,6]" not in raw and json.loads(raw)["current"]["code"] is None


def test_everyone_sees_the_code_once_the_round_is_over() -> None:
    match = Match()
    match.set_code(CODE)
    match.guess(CODE)
    for seat in ("ann", "bob", None):
        view = match.view(seat)
        assert view["history"][0]["code"] == CODE
        assert view["current"]["code"] is None  # round 2's code is not set yet


def test_the_view_lists_rows_roles_scores_and_whose_turn() -> None:
    match = Match()
    assert match.view("ann")["waiting_for"] == [{"seat": "bob", "task": "set_code"}]
    match.set_code(CODE)
    match.guess([6, 0, 7, 1, 1])
    view = match.view("ann")
    assert view["game"] == "mastermind" and view["phase"] == "guess"
    assert view["you"] == {"seat": "ann", "team": "a", "role": "breaker", "show_possible": False}
    assert view["current"]["rows"] == [{"guess": [6, 0, 7, 1, 1], "black": 2, "white": 0}]
    assert view["current"]["rows_left"] == 11
    assert view["current"]["breaker"] == "a" and view["current"]["maker"] == "b"
    assert view["teams"]["a"] == {"seat": "ann", "rounds_won": 0, "points": 0}
    assert view["waiting_for"] == [{"seat": "ann", "task": "guess"}]
    assert view["outcome"] is None


def test_the_possible_counter_shows_for_the_breaker_who_switched_it_on() -> None:
    match = Match(preset="classic")
    match.set_code([1, 2, 3, 4])
    match.guess([0, 0, 1, 1])
    assert match.view("ann")["current"]["possible"] is None
    match.do("ann", {"type": "show_possible", "on": True})
    match.do("bob", {"type": "show_possible", "on": True})  # bob makes: no count for him
    every = itertools.product(range(6), repeat=4)
    expected = sum(1 for c in every if score((0, 0, 1, 1), c) == score((0, 0, 1, 1), (1, 2, 3, 4)))
    assert match.view("ann")["current"]["possible"] == expected
    assert match.view("ann")["you"]["show_possible"] is True
    assert match.view("bob")["current"]["possible"] is None
    assert match.view(None)["current"]["possible"] is None


def test_after_a_round_each_row_is_compared_with_the_solvers_choice() -> None:
    match = Match(preset="classic")
    code = (5, 4, 3, 2)
    guesses = [(0, 1, 2, 3), (2, 3, 4, 5), (5, 4, 3, 2)]
    play = [list(code)] + [list(g) for g in guesses]
    match.set_code(play[0])
    for guess in play[1:]:
        match.guess(guess)
    comparison = match.view(None)["history"][0]["comparison"]
    solver = solver_for(4, 6)
    position: list[Row] = []
    assert len(comparison) == 3
    for row, guess in zip(comparison, guesses, strict=True):
        choice = solver.next_guess(position)
        assert row["solver_guess"] == list(choice)
        assert row["possible_before"] == solver.possible(position)
        mine = [*position, (guess, score(guess, code))]
        assert row["possible_after"] == solver.possible(mine)
        theirs = [*position, (choice, score(choice, code))]
        assert row["solver_possible_after"] == solver.possible(theirs)
        position = mine
    assert comparison[0]["possible_before"] == 1_296 and comparison[-1]["possible_after"] == 1


def test_the_solver_comparison_is_slow_work_until_done_once() -> None:
    match = Match(pegs=5, colours=8)
    assert RULES.slow_view_work(match.state) is None
    match.set_code([1, 2, 3, 4, 5])
    match.guess([1, 2, 3, 4, 5])  # the round is over: its comparison is not built yet
    work = RULES.slow_view_work(match.state)
    assert work is not None
    work()
    assert RULES.slow_view_work(match.state) is None
    assert match.view("ann")["history"][0]["comparison"]


PAIRS = (("ann", False), ("bob", False), (None, False), (None, True))


def test_the_serialised_view_is_the_view() -> None:
    match = Match()
    match.set_code(CODE)
    match.guess([6, 0, 7, 1, 1])
    eyes = [Viewer(seat, open_spectator) for seat, open_spectator in PAIRS]
    for viewer, frame in zip(eyes, RULES.views_json(match.state, eyes), strict=True):
        assert msgspec.json.decode(frame) == RULES.view(match.state, viewer)
