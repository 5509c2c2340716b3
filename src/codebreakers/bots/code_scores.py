"""Scoring the 24 codes at once: a code's score is the sum of its three clue-to-number scores.

Every bot question ("which code did my teammate mean?", "which code did the enemy send?",
"would my teammates read my clues right?") is the same question over a 3 x 4 table of
scores, so it lives here once, vectorised.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codebreakers.games.decrypto.codes import ALL_CODES

# (24, 3) zero-based keyword index for each clue position of each code.
CODE_INDEX = np.array(ALL_CODES, dtype=np.int64) - 1
_POSITIONS = np.arange(3)


def code_scores(table: np.ndarray) -> np.ndarray:
    """(24,) scores from a (3, 4) table of clue-vs-number scores (or (..., 3, 4) batches)."""
    scores: np.ndarray = table[..., _POSITIONS, CODE_INDEX].sum(axis=-1)
    return scores


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    z = scores / temperature
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    probabilities: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return probabilities


def code_position(code: Sequence[int]) -> int:
    """The index of `code` among the 24 (ALL_CODES order)."""
    return ALL_CODES.index(tuple(code))


def as_code(position: int) -> list[int]:
    return list(ALL_CODES[position])
