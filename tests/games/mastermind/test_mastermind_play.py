"""Whole matches: computer against computer, random play keeping the view promises, replays."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mastermind_table import Match

from codebreakers.games.base import Rejection, Viewer
from codebreakers.games.mastermind import RULES
from codebreakers.games.mastermind.computer import computer_move
from codebreakers.games.records import build_record, replay


def play_computers(match: Match) -> None:
    for _ in range(500):
        if RULES.is_over(match.state):
            return
        moved = False
        for seat in ("ann", "bob"):
            action = computer_move(match.view(seat))
            if action is not None:
                match.do(seat, action)
                moved = True
        assert moved, "nobody can move in a match that is not over"
    raise AssertionError("match did not end")


def test_computer_against_computer_finds_every_code_and_marks_honestly() -> None:
    match = Match(manual_marking=True, rounds=4, preset="classic")
    play_computers(match)
    results = [done.result for done in match.state.finished]
    assert results == ["found"] * 4
    assert all(len(done.attempt.rows) <= 5 for done in match.state.finished)
    assert RULES.outcome(match.state) is not None


def test_a_record_replays_to_the_same_views() -> None:
    match = Match(preset="classic")
    play_computers(match)
    record = json.loads(json.dumps(build_record("mastermind", match.setup, match.log)))
    replayed = replay(record).state
    for seat in ("ann", "bob", None):
        assert RULES.view(replayed, Viewer(seat)) == match.view(seat)


def random_action(rng: random.Random, pegs: int, colours: int) -> dict[str, Any]:
    kind = rng.choice(["set_code", "random_code", "guess", "guess", "guess", "mark", "toggle"])
    code = [rng.randrange(colours) for _ in range(pegs)]
    if kind == "random_code":
        return {"type": "set_code", "random": True}
    if kind == "mark":
        black = rng.randrange(pegs + 1)
        return {"type": "mark", "black": black, "white": rng.randrange(pegs + 1 - black)}
    if kind == "toggle":
        return {"type": "show_possible", "on": rng.random() < 0.5}
    if rng.random() < 0.05:
        code = code[:-1]
    return {"type": kind, "code": code}


@given(
    st.integers(3, 4),
    st.integers(5, 7),
    st.integers(8, 9),
    st.booleans(),
    st.integers(0, 2**32),
)
@settings(max_examples=15, deadline=None)
def test_random_play_keeps_the_code_secret_and_replays(
    pegs: int, colours: int, rows: int, manual: bool, seed: int
) -> None:
    match = Match(preset=None, pegs=pegs, colours=colours, rows=rows, manual_marking=manual)
    rng = random.Random(seed)
    for _ in range(400):
        if RULES.is_over(match.state):
            break
        seat = rng.choice(["ann", "bob"])
        action = random_action(rng, pegs, colours)
        parsed = RULES.parse_action(action)
        assert not isinstance(parsed, Rejection)
        if isinstance(RULES.apply(match.state, seat, parsed, 0.0), Rejection):
            continue
        match.do(seat, action)
        current = match.state.current
        if current is None or current.code is None:
            continue
        secret = json.dumps(list(current.code))
        maker = match.state.seats[current.maker]
        for viewer in (Viewer(match.state.seats[current.breaker]), Viewer(None)):
            view = RULES.view(match.state, viewer)
            assert view["current"]["code"] is None
            assert str(match.setup["seed"]) not in json.dumps(view)
        assert RULES.view(match.state, Viewer(maker))["current"]["code"] == json.loads(secret)
    again = replay(build_record("mastermind", match.setup, match.log)).state
    assert again == match.state
