"""Scoring properties: the reference `score`, and the solver's vectorised scoring against it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from codebreakers.games.mastermind.scoring import Keys, score
from codebreakers.games.mastermind.space import code_space, reply_index


def brute_force(guess: tuple[int, ...], code: tuple[int, ...]) -> Keys:
    """Keys by matching pegs one by one, each code peg used at most once (the table's way)."""
    used = [g == c for g, c in zip(guess, code, strict=True)]
    black = sum(used)
    white = 0
    for i, peg in enumerate(guess):
        if guess[i] == code[i]:
            continue
        for j, other in enumerate(code):
            if not used[j] and other == peg:
                used[j] = True
                white += 1
                break
    return Keys(black, white)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    pegs = draw(st.integers(3, 6))
    colours = draw(st.integers(1, 10))
    code = st.tuples(*[st.integers(0, colours - 1)] * pegs)
    return draw(code), draw(code)


@given(pairs())
@settings(max_examples=300, deadline=None)
def test_keys_are_bounded_symmetric_and_a_multiset_count(
    pair: tuple[tuple[int, ...], tuple[int, ...]],
) -> None:
    guess, code = pair
    keys = score(guess, code)
    assert keys.black >= 0 and keys.white >= 0
    assert keys.black + keys.white <= len(guess)
    assert score(code, guess) == keys
    assert brute_force(guess, code) == keys
    assert (keys == Keys(len(guess), 0)) == (guess == code)


def test_a_colour_matched_once_earns_one_key() -> None:
    assert score((1, 1, 0, 0, 0), (2, 2, 2, 2, 1)) == Keys(0, 1)
    assert score((1, 1, 2, 2, 3), (1, 2, 1, 4, 4)) == Keys(1, 2)
    assert score((0, 1, 2, 3, 4), (4, 3, 2, 1, 0)) == Keys(1, 4)
    assert score((5, 5, 5, 5, 5), (5, 0, 0, 0, 0)) == Keys(1, 0)


@given(st.sampled_from([(3, 5), (4, 6), (5, 8), (6, 10)]), st.integers(0, 2**32 - 1))
@settings(max_examples=12, deadline=None)
def test_vectorised_scoring_matches_the_reference(size: tuple[int, int], seed: int) -> None:
    space = code_space(*size)
    rng = np.random.default_rng(seed)
    guesses = rng.integers(0, space.size, 7)
    codes = rng.integers(0, space.size, 50)
    counts = space.partition_counts(guesses, codes)
    for row, g in enumerate(guesses):
        expected = [
            reply_index(space.pegs, *score(space.code(int(g)), space.code(int(c)))) for c in codes
        ]
        assert space.reply(int(g), codes).tolist() == expected
        assert counts[row].tolist() == np.bincount(expected, minlength=space.replies).tolist()


def test_code_indices_round_trip() -> None:
    space = code_space(5, 8)
    assert space.size == 32_768
    assert space.code(0) == (0, 0, 0, 0, 0)
    assert space.code(space.index((7, 0, 3, 1, 2))) == (7, 0, 3, 1, 2)
    assert space.code(space.size - 1) == (7, 7, 7, 7, 7)
