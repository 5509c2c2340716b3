"""What a bot knows about a language: its clue vocabulary and the room's keyword pool.

The pool (the words keywords are dealt from) is public: it ships with the game, and an
experienced player knows it, so a hard bot uses it to narrow down the enemy's keywords. A host's
custom list is not shown to players: then the pool is unknown (empty).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.embeddings import DIM
from codebreakers.bots.vocab import Vocab, load_vocab
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold


@dataclass(frozen=True, slots=True)
class Pool:
    words: tuple[str, ...]
    folded: tuple[str, ...]
    vectors: np.ndarray  # (P, DIM) unit rows
    background: np.ndarray  # (P,) see Vocab.background


@dataclass(frozen=True, slots=True)
class Lexicon:
    vocab: Vocab
    pool: Pool

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.vocab.embed(list(texts))


_lock = threading.Lock()
_pools: dict[tuple[str, ...], Pool] = {}


def pool_for(vocab: Vocab, words: Sequence[str]) -> Pool:
    """The pool's words with their vectors, embedded once per distinct pool."""
    key = tuple(words)
    with _lock:
        cached = _pools.get(key)
    if cached is None:
        vectors = vocab.embed(list(key)) if key else np.zeros((0, DIM), dtype=np.float32)
        cached = Pool(key, tuple(fold(w) for w in key), vectors, vocab.background(vectors))
        with _lock:
            _pools[key] = cached
    return cached


def lexicon(lang: str, pool_known: bool = True) -> Lexicon:
    """The vocabulary of `lang` and the keyword pool of that language (an empty pool when the
    room uses a host's custom list, which the view does not show)."""
    vocab = load_vocab(lang)
    return Lexicon(vocab, pool_for(vocab, load_pool(lang) if pool_known else ()))
