"""Codes: three different digits from 1 to 4, in order; the 24 codes a round may deal."""

from __future__ import annotations

from itertools import permutations

Code = tuple[int, int, int]

# Fixed order: the deal draws an index into this tuple, so it is part of the record format.
ALL_CODES: tuple[Code, ...] = tuple(permutations((1, 2, 3, 4), 3))


def parse_code(raw: object) -> Code | None:
    """A code from untrusted JSON (a list of three distinct ints 1..4), or None."""
    if not isinstance(raw, list | tuple) or len(raw) != 3:
        return None
    digits: list[int] = []
    for digit in raw:
        if type(digit) is not int or not 1 <= digit <= 4 or digit in digits:
            return None
        digits.append(digit)
    return (digits[0], digits[1], digits[2])
