"""Reading a transmission with one's own keywords: the best of the 24 codes, and how sure.

A clue's score for keyword k is their cosine minus a quarter of k's background (its mean cosine
with common words), so a keyword that is close to everything does not attract every clue. A
full correction over-corrects: USE places short words (Korean one-syllable nouns such as 빵)
near everything, and their true clues then lose; a quarter read most of the hand-written clue
sets of tests/bots/test_human_clues.py right (20 of 21; none: 20, a half: 19, full: 19).
A code's score is the sum over its three clues; the confidence is the softmax of the code
scores at a temperature fitted on simulated games (scripts/fit_bot_temperature.py, docs/bots.md), so
"0.9" means right about nine times in ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.codes import as_code, code_scores, softmax
from codebreakers.bots.lexicon import Lexicon

# Fitted by scripts/fit_bot_temperature.py (docs/bots.md has the run and its reliability table).
DECODE_TEMPERATURE = 0.03
HUBNESS_WEIGHT = 0.25


@dataclass(frozen=True, slots=True)
class Reading:
    """A chosen code, the model's probability that it is right, and all 24 probabilities."""

    code: list[int]
    confidence: float
    probabilities: np.ndarray

    @property
    def best(self) -> int:
        return int(np.argmax(self.probabilities))


def keyword_table(lex: Lexicon, keywords: Sequence[str], clue_vectors: np.ndarray) -> np.ndarray:
    """(n_clues, 4) clue-vs-keyword scores (cosine minus part of the keyword's background)."""
    kw = lex.embed(keywords)
    return clue_vectors @ kw.T - HUBNESS_WEIGHT * lex.vocab.background(kw)[None, :]


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
    table = keyword_table(lex, keywords, lex.embed(clues))
    return read(code_scores(table), DECODE_TEMPERATURE, noise, rng)
