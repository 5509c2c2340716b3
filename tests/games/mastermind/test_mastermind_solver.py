"""The computer codebreaker: every 4 x 6 code within 5 guesses, other sizes within their rows."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from codebreakers.games.mastermind.scoring import Keys, score
from codebreakers.games.mastermind.solver import Row, Solver, solver_for


def solve(solver: Solver, code: tuple[int, ...], limit: int) -> int:
    """Guesses the solver needs for `code` (fails past `limit`)."""
    rows: list[Row] = []
    for moves in range(1, limit + 1):
        guess = solver.next_guess(rows)
        keys = score(guess, code)
        if keys.black == len(code):
            return moves
        rows.append((guess, keys))
    raise AssertionError(f"{code} not found in {limit} guesses")


def test_every_classic_code_within_five_guesses() -> None:
    solver = Solver(4, 6)
    codes = list(itertools.product(range(6), repeat=4))
    moves = [solve(solver, code, 5) for code in codes]
    assert len(moves) == 1_296
    assert max(moves) == 5
    assert sum(moves) / len(moves) <= 4.48


@pytest.mark.parametrize(
    ("pegs", "colours", "rows"), [(3, 5, 8), (3, 10, 8), (4, 8, 10), (5, 8, 12), (6, 5, 12)]
)
def test_random_codes_of_other_sizes_are_found_within_their_rows(
    pegs: int, colours: int, rows: int
) -> None:
    rng = np.random.default_rng(pegs * 100 + colours)
    solver = solver_for(pegs, colours)
    for _ in range(3):
        code = tuple(int(c) for c in rng.integers(0, colours, pegs))
        solve(solver, code, rows)


@pytest.mark.slow
def test_the_largest_size_finds_random_codes_within_twelve_rows() -> None:
    rng = np.random.default_rng(610)
    solver = solver_for(6, 10)
    for _ in range(2):
        solve(solver, tuple(int(c) for c in rng.integers(0, 10, 6)), 12)


def test_the_solver_is_deterministic() -> None:
    code = (3, 1, 4, 7)
    first, second = Solver(4, 8), Solver(4, 8)
    rows: list[Row] = []
    for _ in range(3):
        guess = first.next_guess(rows)
        assert second.next_guess(rows) == guess
        rows.append((guess, score(guess, code)))


def test_possible_counts_match_a_brute_force_filter() -> None:
    solver = Solver(3, 5)
    code = (4, 0, 4)
    rows: list[Row] = []
    every = list(itertools.product(range(5), repeat=3))
    for guess in [(0, 0, 1), (2, 3, 4)]:
        rows.append((guess, score(guess, code)))
        expected = [c for c in every if all(score(g, c) == k for g, k in rows)]
        assert solver.possible(rows) == len(expected)
        assert code in expected


def test_the_first_guess_has_an_aabbc_like_shape() -> None:
    assert Solver(4, 6).next_guess([]) == (0, 0, 1, 2)
    assert len(set(Solver(5, 8).next_guess([]))) in (3, 4)


def test_rows_no_code_satisfies_get_a_code_not_yet_played() -> None:
    solver = Solver(4, 6)
    rows: list[Row] = [((0, 0, 0, 0), Keys(4, 0)), ((1, 1, 1, 1), Keys(4, 0))]
    assert solver.possible(rows) == 0
    guess = solver.next_guess(rows)
    assert guess not in ((0, 0, 0, 0), (1, 1, 1, 1))
