"""Options, setup, parsing and play: rounds, points, role swaps, the match result, rejections."""

from __future__ import annotations

from typing import Any

import pytest
from mastermind_table import SEED, Match

from codebreakers.games.base import Rejection
from codebreakers.games.mastermind import REJECTION_CODES, RULES
from codebreakers.games.mastermind.scoring import Keys


def test_defaults_are_super_mastermind() -> None:
    checked = RULES.check_options({})
    assert checked == {
        "preset": "super",
        "pegs": 5,
        "colours": 8,
        "rows": 12,
        "rounds": 2,
        "manual_marking": False,
        "open_spectators": False,
        "rated": False,
    }


def test_classic_preset_and_explicit_sizes() -> None:
    classic = RULES.check_options({"preset": "classic"})
    assert isinstance(classic, dict)
    assert (classic["pegs"], classic["colours"], classic["rows"]) == (4, 6, 10)
    custom = RULES.check_options({"preset": None, "pegs": 6, "colours": 10, "rows": 8})
    assert isinstance(custom, dict)
    assert (custom["pegs"], custom["colours"], custom["rows"]) == (6, 10, 8)
    mixed = RULES.check_options({"preset": "classic", "rows": 12})
    assert isinstance(mixed, dict) and mixed["rows"] == 12 and mixed["pegs"] == 4


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"pegs": 7}, "invalid_option"),
        ({"pegs": 2}, "invalid_option"),
        ({"colours": 4}, "invalid_option"),
        ({"colours": 11}, "invalid_option"),
        ({"rows": 7}, "invalid_option"),
        ({"rows": 13}, "invalid_option"),
        ({"rounds": 3}, "invalid_option"),
        ({"rounds": 12}, "invalid_option"),
        ({"rounds": 0}, "invalid_option"),
        ({"pegs": True}, "invalid_option"),
        ({"pegs": 5.0}, "invalid_option"),
        ({"manual_marking": 1}, "invalid_option"),
        ({"rated": "yes"}, "invalid_option"),
        ({"preset": "huge"}, "invalid_option"),
        ({"timer": 30}, "unknown_option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], code: str) -> None:
    refused = RULES.check_options(options)
    assert isinstance(refused, Rejection) and refused.code == code


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ({"teams": {"a": ["x"], "b": ["y"]}}, "invalid_setup"),
        ({"teams": {"a": ["x"], "b": ["x"]}, "seed": 1}, "invalid_teams"),
        ({"teams": {"a": ["x", "z"], "b": ["y"]}, "seed": 1}, "invalid_teams"),
        ({"teams": {"white": ["x"], "black": ["y"]}, "seed": 1}, "invalid_teams"),
        ({"teams": {"a": ["system"], "b": ["y"]}, "seed": 1}, "invalid_teams"),
        ({"teams": {"a": ["x"], "b": ["y"]}, "seed": 1, "options": {"pegs": 9}}, "invalid_option"),
    ],
)
def test_bad_setups_are_refused(setup: dict[str, Any], code: str) -> None:
    refused = RULES.new_game(setup)
    assert isinstance(refused, Rejection) and refused.code == code


def test_team_sizes_are_one_each() -> None:
    assert RULES.team_sizes({}) == {"a": (1, 1), "b": (1, 1)}


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("guess", "malformed_action"),
        ({"code": [1, 2]}, "malformed_action"),
        ({"type": "cheat"}, "unknown_action"),
        ({"type": "guess"}, "malformed_action"),
        ({"type": "guess", "code": [1, 2, 3], "extra": 1}, "malformed_action"),
        ({"type": "guess", "code": "12345"}, "invalid_code"),
        ({"type": "guess", "code": [1, 2, 3, 4, 5, 6, 7]}, "invalid_code"),
        ({"type": "guess", "code": [1, 2, -1, 4, 5]}, "invalid_code"),
        ({"type": "guess", "code": [1, 2, 10, 4, 5]}, "invalid_code"),
        ({"type": "guess", "code": [1, 2, True, 4, 5]}, "invalid_code"),
        ({"type": "set_code", "code": [1, 2, 3, 4, 5], "random": True}, "malformed_action"),
        ({"type": "set_code", "random": False}, "malformed_action"),
        ({"type": "mark", "black": 1}, "malformed_action"),
        ({"type": "mark", "black": 1, "white": -1}, "invalid_keys"),
        ({"type": "mark", "black": "1", "white": 0}, "invalid_keys"),
        ({"type": "show_possible", "on": "yes"}, "malformed_action"),
    ],
)
def test_malformed_actions_are_refused(raw: Any, code: str) -> None:
    refused = RULES.parse_action(raw)
    assert isinstance(refused, Rejection) and refused.code == code
    assert code in REJECTION_CODES


def test_a_found_code_scores_the_rows_left_and_roles_swap(match: Match) -> None:
    assert match.state.phase == "set_code" and match.seat("breaker") == "ann"
    match.set_code([1, 2, 3, 4, 5])
    for guess in ([0, 0, 1, 1, 2], [1, 1, 2, 2, 3], [5, 4, 3, 2, 1]):
        match.guess(guess)
    match.guess([1, 2, 3, 4, 5])
    assert match.state.points == (12 - 4, 0) and match.state.rounds_won == (1, 0)
    assert match.state.phase == "set_code" and match.seat("breaker") == "bob"
    found = match.state.finished[-1]
    assert (found.attempt.round, len(found.attempt.rows)) == (1, 4)
    assert found.attempt.rows[-1].keys == Keys(5, 0)
    assert (found.result, found.points) == ("found", 8)
    view = match.view("bob")
    assert view["history"][0]["result"] == "found" and view["history"][0]["points"] == 8
    assert view["current"]["round"] == 2 and view["you"]["role"] == "breaker"


def play_round(match: Match, code: list[int], guesses: list[list[int]]) -> None:
    match.set_code(code)
    for guess in guesses:
        match.guess(guess)


def test_a_code_not_found_in_every_row_wins_the_round_for_the_maker() -> None:
    match = Match(preset="classic")
    play_round(match, [5, 5, 5, 5], [[0, 0, 0, 0]] * 10)
    assert match.state.rounds_won == (0, 1) and match.state.points == (0, 0)
    assert match.state.finished[-1].result == "not_found"
    play_round(match, [1, 2, 3, 4], [[4, 3, 2, 1], [1, 2, 3, 4]])
    assert match.state.phase == "over"
    assert RULES.is_over(match.state)
    assert RULES.outcome(match.state) == {
        "winner": "b",
        "reason": "rounds",
        "rounds_won": {"a": 0, "b": 2},
        "points": {"a": 0, "b": 8},
    }
    assert match.refused("ann", {"type": "guess", "code": [1, 1, 1, 1]}) == "game_over"


def test_equal_rounds_are_decided_on_points_then_drawn() -> None:
    on_points = Match(preset="classic")
    play_round(on_points, [1, 2, 3, 4], [[0, 0, 1, 1], [1, 2, 3, 4]])  # ann: 8 points
    play_round(on_points, [1, 2, 3, 4], [[0, 0, 1, 1], [0, 0, 2, 2], [1, 2, 3, 4]])  # bob: 7
    assert RULES.outcome(on_points.state) == {
        "winner": "a",
        "reason": "points",
        "rounds_won": {"a": 1, "b": 1},
        "points": {"a": 8, "b": 7},
    }
    drawn = Match(preset="classic", rounds=4)
    for _ in range(4):
        play_round(drawn, [1, 2, 3, 4], [[1, 2, 3, 4]])
    outcome = RULES.outcome(drawn.state)
    assert outcome is not None and outcome["winner"] is None and outcome["reason"] == "draw"


def test_turn_and_size_rejections_change_nothing(match: Match) -> None:
    assert match.refused("ann", {"type": "set_code", "code": [1, 2, 3, 4, 5]}) == "not_maker"
    assert match.refused("ann", {"type": "guess", "code": [1, 2, 3, 4, 5]}) == "wrong_phase"
    assert match.refused("eve", {"type": "guess", "code": [1, 2, 3, 4, 5]}) == "not_a_player"
    assert match.refused("bob", {"type": "set_code", "code": [1, 2, 3, 4]}) == "wrong_code_length"
    assert match.refused("bob", {"type": "set_code", "code": [1, 2, 3, 4, 8]}) == (
        "colour_out_of_range"
    )
    assert match.refused("bob", {"type": "mark", "black": 0, "white": 0}) == "wrong_phase"
    match.set_code([1, 2, 3, 4, 5])
    assert match.refused("bob", {"type": "set_code", "code": [1, 2, 3, 4, 5]}) == "wrong_phase"
    assert match.refused("bob", {"type": "guess", "code": [1, 2, 3, 4, 5]}) == "not_breaker"
    assert match.refused("ann", {"type": "guess", "code": [1, 2, 3]}) == "wrong_code_length"
    assert match.refused("bob", {"type": "mark", "black": 1, "white": 0}) == "wrong_phase"


def test_a_random_code_comes_from_the_seed_and_changes_per_round() -> None:
    first, again = Match(), Match()
    first.do("bob", {"type": "set_code", "random": True})
    again.do("bob", {"type": "set_code", "random": True})
    code = first.state.current.code if first.state.current else None
    assert code is not None and len(code) == 5 and all(0 <= c < 8 for c in code)
    assert again.state.current is not None and again.state.current.code == code
    first.guess(list(code))
    first.do("ann", {"type": "set_code", "random": True})
    assert first.state.current is not None and first.state.current.code != code
    assert SEED not in (code, first.state.current.code)


def test_manual_marking_waits_for_the_maker_and_accepts_right_keys() -> None:
    match = Match(manual_marking=True, preset="classic")
    match.set_code([1, 2, 3, 4])
    match.guess([1, 3, 5, 5])
    assert match.state.phase == "mark"
    assert match.refused("ann", {"type": "guess", "code": [1, 1, 1, 1]}) == "wrong_phase"
    assert match.refused("bob", {"type": "mark", "black": 3, "white": 2}) == "too_many_keys"
    assert match.refused("ann", {"type": "mark", "black": 1, "white": 1}) == "not_maker"
    assert match.view("ann")["current"]["rows"][0]["black"] is None
    match.mark(1, 1)
    match.guess([1, 2, 3, 4])
    match.mark(4, 0)
    assert match.state.rounds_won == (1, 0) and match.state.points == (8, 0)
    assert match.state.finished[-1].result == "found"


def test_wrong_marking_costs_the_maker_three_points_and_the_round_is_replayed() -> None:
    match = Match(manual_marking=True, preset="classic")
    match.set_code([1, 2, 3, 4])
    match.guess([1, 3, 5, 5])
    match.mark(0, 1)  # wrong: it is 1 black, 1 white
    match.guess([1, 2, 3, 4])
    match.mark(4, 0)
    state = match.state
    assert state.points == (3, -3) and state.rounds_won == (0, 0)
    assert state.finished[-1].result == "mismarked" and state.finished[-1].wrong_rows == (0,)
    assert state.current is not None
    assert (state.current.round, state.current.replay, state.current.breaker) == (1, 1, 0)
    assert state.phase == "set_code" and state.current.rows == ()
    assert (state.finished[-1].attempt.round, state.finished[-1].result) == (1, "mismarked")
    history = match.view("ann")["history"][0]
    assert history["wrong_rows"] == [1] and history["rows"][0]["true_black"] == 1
    match.set_code([6 - 1, 0, 0, 1])
    match.guess([5, 0, 0, 1])
    match.mark(4, 0)
    assert match.state.points == (3 + 9, -3) and match.state.rounds_won == (1, 0)


def test_false_win_ends_the_round_with_the_penalty() -> None:
    match = Match(manual_marking=True, preset="classic")
    match.set_code([1, 2, 3, 4])
    match.guess([4, 3, 2, 1])
    match.mark(4, 0)
    assert match.state.points == (3, -3) and match.state.finished[-1].result == "mismarked"
    assert match.state.current is not None and match.state.current.replay == 1


def test_the_counter_is_a_seat_preference() -> None:
    match = Match()
    match.do("ann", {"type": "show_possible", "on": True})
    match.do("bob", {"type": "show_possible", "on": True})
    match.do("bob", {"type": "show_possible", "on": False})
    assert match.state.show_possible == frozenset({"ann"})
    assert RULES.private_actions == frozenset({"show_possible"})


def test_chat_and_timers() -> None:
    match = Match()
    assert RULES.can_chat(match.state, "ann", "all")
    assert not RULES.can_chat(match.state, "ann", "team")
    assert RULES.next_deadline(match.state) is None
    assert RULES.seat_team(match.state, "bob") == "b" and RULES.seat_team(match.state, "x") is None
