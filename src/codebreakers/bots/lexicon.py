"""What a bot knows about a language: its association lexicon, its clue vocabulary (for words
no lexicon covers) and the room's keyword pool.

The pool (the words keywords are dealt from) is public: it ships with the game, and an
experienced player knows it, so a hard bot uses it to narrow down the enemy's keywords. A host's
custom list is not shown to players: then the pool is unknown (empty).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from codebreakers.bots.associations import Associations, load_associations
from codebreakers.bots.embeddings import DIM, TEXTS
from codebreakers.bots.vocab import Vocab, load_vocab
from codebreakers.games.decrypto.words import load_pool
from codebreakers.games.decrypto.words.folding import fold


@dataclass(frozen=True, slots=True)
class Pool:
    words: tuple[str, ...]
    folded: tuple[str, ...]
    vectors: np.ndarray  # (P, DIM) unit rows
    background: np.ndarray  # (P,) see Vocab.background
    index: dict[str, int]  # folded word -> column
    # One unit row per sense of every word (its grade 3 and 2 associations' mean), grouped by
    # word: word p's rows start at starts[p]; a word without associations has a zero row.
    centroids: np.ndarray  # (S, DIM)
    starts: np.ndarray  # (P,) int
    covered: np.ndarray  # (P,) bool: the word has associations


def sense_centroids(assoc: Associations, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(centroids, starts) of `Pool`: per word, one mean vector per sense."""
    rows: list[np.ndarray] = []
    starts = []
    for word in words:
        starts.append(len(rows))
        found = assoc.of(word)
        if not found:
            rows.append(np.zeros(DIM, dtype=np.float32))
            continue
        vectors = assoc.vectors(word)
        for sense in dict.fromkeys(a.sense for a in found if a.given):
            # the lexicon's own words: a reference's vector (a name's) says little of a sense
            own = [i for i, a in enumerate(found) if a.sense == sense and a.given]
            picked = [i for i in own if found[i].grade >= 2] or own
            mean = vectors[picked].mean(axis=0)
            rows.append(mean / max(float(np.linalg.norm(mean)), 1e-9))
    centroids = np.stack(rows) if rows else np.zeros((0, DIM), dtype=np.float32)
    return centroids.astype(np.float32), np.array(starts, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Lexicon:
    vocab: Vocab
    pool: Pool
    assoc: Associations

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return embed(self.vocab, self.assoc, texts)


def embed(vocab: Vocab, assoc: Associations, texts: Sequence[str]) -> np.ndarray:
    """Unit vectors, the stored rows of associations, pool words and vocabulary words where
    possible (so every bot scores a clue with exactly the vector its encryptor saw)."""
    texts = list(texts)
    known = vocab.known_vectors(texts)
    known.update(assoc.known_vectors(texts))
    return TEXTS.embed(texts, known)


_lock = threading.Lock()
_pools: dict[tuple[str, tuple[str, ...]], Pool] = {}


def pool_for(vocab: Vocab, assoc: Associations, words: Sequence[str]) -> Pool:
    """The pool's words with their vectors, embedded once per distinct pool and language."""
    key = (vocab.lang, tuple(words))
    with _lock:
        cached = _pools.get(key)
    if cached is None:
        words = key[1]
        vectors = embed(vocab, assoc, words) if words else np.zeros((0, DIM), dtype=np.float32)
        folded = tuple(fold(w) for w in words)
        centroids, starts = sense_centroids(assoc, words)
        covered = np.array([bool(assoc.of(w)) for w in words], dtype=bool)
        index = {f: i for i, f in reversed(list(enumerate(folded)))}
        background = vocab.background(vectors)
        cached = Pool(words, folded, vectors, background, index, centroids, starts, covered)
        with _lock:
            _pools[key] = cached
    return cached


def lexicon(lang: str, pool_known: bool = True) -> Lexicon:
    """The vocabulary and associations of `lang` and the keyword pool of that language (an
    empty pool when the room uses a host's custom list, which the view does not show)."""
    vocab, assoc = load_vocab(lang), load_associations(lang)
    return Lexicon(vocab, pool_for(vocab, assoc, load_pool(lang) if pool_known else ()), assoc)
