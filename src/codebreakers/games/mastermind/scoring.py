"""The black-and-white reply to one guess, as the rules define it, in plain Python.

This is the reference the engine marks rows with; the solver's vectorised scoring in
`space.py` is tested against it. Each code peg is matched at most once: blacks first (right
colour, right place), then whites are the colour matches left over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple


class Keys(NamedTuple):
    """The reply to one row: black keys (colour and place) and white keys (colour only)."""

    black: int
    white: int


def score(guess: Sequence[int], code: Sequence[int]) -> Keys:
    """The keys `guess` earns against `code` (both the same length)."""
    black = sum(1 for g, c in zip(guess, code, strict=True) if g == c)
    common = Counter(guess) & Counter(code)
    return Keys(black, sum(common.values()) - black)
