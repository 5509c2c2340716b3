"""The tie-break: naming the enemy's four keywords from their clues, and judging their guesses.

A keyword is guessed as the word that sits closest to all of its revealed clues at once: a word
of the room's keyword pool when the pool is known (keywords are dealt from it), otherwise of
the clue vocabulary. A guess at our own keywords that misses the spelling but is a form or a
near translation of the keyword ("oceans", "sea" for "ocean") is a near miss a fair owner accepts.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from codebreakers.bots.interceptor import History
from codebreakers.bots.lexicon import Lexicon
from codebreakers.bots.wordforms import same_root
from codebreakers.games.decrypto.words.folding import fold

# Cosine at or above which a guess means the keyword (synonym, translation, inflection).
NEAR_MISS_COSINE = 0.80


def guess_keywords(
    lex: Lexicon, history: History, own_keywords: Sequence[str], use_pool: bool
) -> list[str]:
    """One guess per enemy keyword number, never one of our keywords or the same word twice."""
    if use_pool and lex.pool.words:
        words, vectors, background = lex.pool.words, lex.pool.vectors, lex.pool.background
    else:
        vocab = lex.vocab
        words, vectors, background = vocab.words, vocab.vectors, vocab.background(vocab.vectors)
    banned = {fold(w) for w in own_keywords}
    guesses: list[str] = []
    for number in range(1, 5):
        clues = list(history.get(number, ()))
        if clues:
            fit = (lex.embed(clues) @ vectors.T).sum(axis=0) - len(clues) * background
        else:
            fit = -background.copy()
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
    return float(vectors[0] @ vectors[1]) >= NEAR_MISS_COSINE
