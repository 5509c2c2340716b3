"""Mastermind's results per seat, on hand-played matches: who won, rows to break a code."""

from __future__ import annotations

from mastermind_table import Match

from codebreakers.games.mastermind import RULES
from codebreakers.games.records import build_record, replay
from codebreakers.games.results import Result


def play_round(match: Match, code: list[int], guesses: list[list[int]]) -> None:
    match.set_code(code)
    for guess in guesses:
        match.guess(guess)


def test_rows_to_break_and_the_winner() -> None:
    match = Match(preset="classic")
    assert RULES.results(match.state) is None
    play_round(match, [1, 2, 3, 4], [[0, 0, 1, 1], [4, 3, 2, 1], [1, 2, 3, 4]])  # ann: 3 rows
    play_round(match, [5, 5, 5, 5], [[0, 0, 0, 0]] * 10)  # bob never breaks it
    found = RULES.results(match.state)
    assert found is not None and found.variant == "classic"
    assert found.seats["ann"].side == "a" and found.seats["ann"].result is Result.WIN
    assert found.seats["bob"].side == "b" and found.seats["bob"].result is Result.LOSS
    assert found.seats["ann"].figures == {"codes": 1, "broken": 1, "rows_to_break": 3}
    assert found.seats["bob"].figures == {"codes": 1, "broken": 0, "rows_to_break": 0}
    folded = replay(build_record("mastermind", match.setup, match.log))
    assert RULES.results(folded.state) == found


def test_a_drawn_match_ranks_both_sides_first() -> None:
    drawn = Match(preset="classic", rounds=4)
    for _ in range(4):
        play_round(drawn, [1, 2, 3, 4], [[1, 2, 3, 4]])
    found = RULES.results(drawn.state)
    assert found is not None
    assert {r.result for r in found.seats.values()} == {Result.DRAW}
    assert found.seats["ann"].figures == {"codes": 2, "broken": 2, "rows_to_break": 2}
    assert found.ranks() == {"a": 0, "b": 0}
