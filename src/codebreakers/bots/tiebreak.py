"""The tie-break: naming the enemy's four keywords from their clues, and judging their guesses.

A keyword is guessed as the word that fits all of its revealed clues at once: a word of the
room's keyword pool when the pool is known (keywords are dealt from it), scored as every seat
scores a clue (closeness.py: the embedding and the word's associations; the pool-wide
approximation ranks, the exact score decides among the best few), otherwise a word of the
clue vocabulary. A guess at our own keywords that misses the spelling but is a form or a near
translation of the keyword ("oceans", "sea" for "ocean"), or a pool word that is a grade-3
association of the keyword while the keyword is one of its own, is a near miss a fair owner
accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codebreakers.bots.closeness import keyword_table, pool_association_table
from codebreakers.bots.interceptor import History
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words.folding import fold

# Cosine at or above which a guess means the keyword (synonym, translation, inflection).
NEAR_MISS_COSINE = 0.80


# How many of the best pool words by the pool-wide score get the exact score.
_RESCORED = 12


def _pool_fit(lex: Lexicon, clues: list[str]) -> np.ndarray:
    """(P,) how well each pool word fits all of a number's clues."""
    pool = lex.pool
    if not clues:
        return -pool.background.copy()
    vectors = lex.embed(clues)
    closeness = vectors @ pool.vectors.T - pool.background[None, :]
    fit: np.ndarray = (closeness + pool_association_table(lex, clues, vectors)).sum(axis=0)
    best = np.argsort(-fit)[:_RESCORED]
    exact = keyword_table(lex, [pool.words[int(i)] for i in best], clues, vectors).sum(axis=0)
    # The exact scores rank the best few above every other word, among themselves by exact fit.
    fit[best] = fit.max() + 1.0 + exact - exact.min()
    return fit


def _vocabulary_fit(lex: Lexicon, clues: list[str]) -> np.ndarray:
    vocab = lex.vocab
    background = vocab.background(vocab.vectors)
    if not clues:
        return -background
    fit: np.ndarray = (lex.embed(clues) @ vocab.vectors.T).sum(axis=0) - len(clues) * background
    return fit


def guess_keywords(
    lex: Lexicon, history: History, own_keywords: Sequence[str], use_pool: bool
) -> list[str]:
    """One guess per enemy keyword number, never one of our keywords or the same word twice."""
    in_pool = use_pool and bool(lex.pool.words)
    words = lex.pool.words if in_pool else lex.vocab.words
    banned = {fold(w) for w in own_keywords}
    guesses: list[str] = []
    for number in range(1, 5):
        clues = list(history.get(number, ()))
        fit = _pool_fit(lex, clues) if in_pool else _vocabulary_fit(lex, clues)
        for row in np.argsort(-fit):
            word = words[int(row)]
            if fold(word) in banned or any(same_root(word, clue) for clue in clues):
                continue
            guesses.append(word)
            banned.add(fold(word))
            break
    return guesses


def near_miss(lex: Lexicon, guess: str, keyword: str) -> bool:
    """Whether a fair owner accepts `guess` for `keyword` though it is not spelt the same."""
    if not guess.strip():
        return False
    if same_root(guess, keyword):
        return True
    vectors = lex.embed([guess, keyword])
    if float(vectors[0] @ vectors[1]) >= NEAR_MISS_COSINE:
        return True
    # Each the other's strongest association ("sea" and "ocean"): near synonyms to people.
    return lex.assoc.match_grade(guess, keyword) == 3 == lex.assoc.match_grade(keyword, guess)
