"""Reading a transmission with one's own keywords: the best of the 24 codes, and how sure.

A clue's score for each keyword comes from closeness.py (the embedding and the keyword's
associations); a code's score is the sum over its three clues; the confidence is the softmax
of the code scores at a temperature fitted on simulated games (scripts/fit_bot_temperature.py,
docs/bots.md), so "0.9" means right about nine times in ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.closeness import keyword_table
from codebreakers.bots.code_scores import as_code, code_scores, softmax
from codebreakers.bots.lexicon import Lexicon

# Fitted by scripts/fit_bot_temperature.py (docs/bots.md has the run and its reliability table).
DECODE_TEMPERATURE = 0.04


@dataclass(frozen=True, slots=True)
class Reading:
    """A chosen code, the model's probability that it is right, and all 24 probabilities."""

    code: list[int]
    confidence: float
    probabilities: np.ndarray

    @property
    def best(self) -> int:
        return int(np.argmax(self.probabilities))


def read(
    scores: np.ndarray,
    temperature: float,
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> Reading:
    """The code a reader picks from 24 code scores (with Gumbel noise for weaker levels)."""
    probabilities = softmax(scores, temperature)
    picked = scores
    if noise > 0.0 and rng is not None:
        picked = scores + noise * rng.gumbel(size=scores.shape)
    best = int(np.argmax(picked))
    return Reading(as_code(best), float(probabilities[best]), probabilities)


def decode(
    lex: Lexicon,
    keywords: Sequence[str],
    clues: Sequence[str],
    noise: float = 0.0,
    rng: np.random.Generator | None = None,
) -> Reading:
    """Our own team's reading of `clues` given our `keywords`."""
    table = keyword_table(lex, keywords, clues, lex.embed(clues))
    return read(code_scores(table), DECODE_TEMPERATURE, noise, rng)
