"""How strongly a clue points at a keyword: the one score every seat uses.

A clue's score for a keyword adds two kinds of knowledge:
- the embedding: the cosine of clue and keyword, minus a quarter of the keyword's background
  (its mean cosine with common words), so a keyword close to everything does not attract every
  clue. A full correction over-corrects: USE places short words (Korean one-syllable nouns such
  as 빵) near everything, and their true clues then lose;
- the association lexicon: how close the clue is to the keyword's nearest association
  (cosine, less GRADE_STEP per grade under 3), and at least "as close as the association
  itself" when the clue is an association, a form of one ("pedals" for "pedal"), or a phrase
  with such a word ("keys and pedals"). What exceeds ASSOC_FLOOR counts: a grade-3
  association adds 0.3, which outweighs the embedding's usual differences between keywords,
  and a near synonym of an association (cosine above 0.7) still adds a little. The floor was
  chosen on the development set and simulated transmissions (docs/bots.md): from 0.6 to 0.75
  it reads the same human transmissions, while a lower floor lends the nearest of 30
  unrelated associations (cosine ~0.45, 0.58 at the 90th percentile) enough weight to misread
  clues chosen by embeddings alone.
Both are on the cosine scale, so the decode temperatures stay meaningful.

For a whole keyword pool (the hard interceptor and the tie-break guess among ~550 words), the
nearest association is approximated by each sense's centroid (the mean of its grade 3 and 2
associations; on the English lexicon its cosine with a clue is within 0.01 of the nearest
association's at the median), plus the exact-match index.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codebreakers.bots.associations import tokens
from codebreakers.bots.lexicon import Lexicon
from codebreakers.games.decrypto.words.folding import fold

HUBNESS_WEIGHT = 0.25
GRADE_STEP = 0.05
ASSOC_FLOOR = 0.7
ASSOC_WEIGHT = 1.0


def _grade_value(grade: np.ndarray) -> np.ndarray:
    return 1.0 - GRADE_STEP * (3.0 - grade)


def association_closeness(
    lex: Lexicon, keyword: str, texts: Sequence[str], vectors: np.ndarray
) -> np.ndarray:
    """(n,) how much the keyword's associations add to each clue's score (0 for none)."""
    associations = lex.assoc.of(keyword)
    if not associations or not len(texts):
        return np.zeros(len(texts), dtype=np.float32)
    grades = lex.assoc.grades(keyword)
    nearest = (vectors @ lex.assoc.vectors(keyword).T + _grade_value(grades)[None, :] - 1.0).max(
        axis=1
    )
    matched = np.array([lex.assoc.match_grade(t, keyword) for t in texts], dtype=np.float32)
    nearest = np.where(matched > 0, np.maximum(nearest, _grade_value(matched)), nearest)
    added: np.ndarray = ASSOC_WEIGHT * np.maximum(nearest - ASSOC_FLOOR, 0.0)
    return added


def keyword_table(
    lex: Lexicon, keywords: Sequence[str], texts: Sequence[str], vectors: np.ndarray
) -> np.ndarray:
    """(n_clues, len(keywords)) score of each clue (text and unit vector) for each keyword."""
    kw = lex.embed(keywords)
    table: np.ndarray = vectors @ kw.T - HUBNESS_WEIGHT * lex.vocab.background(kw)[None, :]
    for j, keyword in enumerate(keywords):
        table[:, j] += association_closeness(lex, keyword, texts, vectors)
    return table


def embedding_table(lex: Lexicon, keywords: Sequence[str], vectors: np.ndarray) -> np.ndarray:
    """The embedding part of `keyword_table` alone: cheap for thousands of vocabulary rows."""
    kw = lex.embed(keywords)
    table: np.ndarray = vectors @ kw.T - HUBNESS_WEIGHT * lex.vocab.background(kw)[None, :]
    return table


def pool_association_table(lex: Lexicon, texts: Sequence[str], vectors: np.ndarray) -> np.ndarray:
    """(n_clues, P) the association part of each clue's score for every word of the pool."""
    pool = lex.pool
    if not len(pool.words) or not len(texts):
        return np.zeros((len(texts), len(pool.words)), dtype=np.float32)
    nearest = np.maximum.reduceat(vectors @ pool.centroids.T, pool.starts, axis=1)
    nearest = np.where(pool.covered[None, :], nearest, -1.0)
    for i, text in enumerate(texts):
        for key in {fold(text)} | {fold(t) for t in tokens(text)}:
            for keyword, grade in lex.assoc.exact.get(key, ()):
                column = pool.index.get(keyword)
                if column is not None:
                    nearest[i, column] = max(nearest[i, column], 1.0 - GRADE_STEP * (3 - grade))
    return ASSOC_WEIGHT * np.maximum(nearest - ASSOC_FLOOR, 0.0)
