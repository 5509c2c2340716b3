"""Per-language clue vocabularies: frequent words with their precomputed embeddings.

Built offline by scripts/build_bot_vocab.py (the file says which words and why) and shipped
as package data, so loading one costs milliseconds instead of embedding 8,000 words.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from codebreakers.bots.embeddings import TEXTS
from codebreakers.games.decrypto.words.folding import fold

LANGUAGES = ("en", "fr", "ru", "ko")
_BACKGROUND_WORDS = 2000


def vocab_path(lang: str) -> Path:
    """Where the vocabulary of `lang` is stored (inside the package)."""
    return Path(str(resources.files("codebreakers.bots").joinpath("data", f"vocab_{lang}.npz")))


@dataclass(frozen=True, slots=True)
class Vocab:
    """Words (most frequent first), their unit vectors, Zipf frequencies and a hubness profile."""

    lang: str
    words: tuple[str, ...]
    vectors: np.ndarray  # (N, DIM) float32, unit rows
    zipf: np.ndarray  # (N,) float32
    index: dict[str, int]  # folded word -> row
    centre: np.ndarray  # (DIM,) mean of the 2,000 most frequent words' vectors

    def row_of(self, text: str) -> int | None:
        return self.index.get(fold(text))

    def known_vectors(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Rows for the texts that are vocabulary words, to reuse their stored vectors."""
        rows = {t: self.row_of(t) for t in texts}
        return {t: self.vectors[r] for t, r in rows.items() if r is not None}

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for texts, vocabulary rows where possible (identical for every bot)."""
        return TEXTS.embed(texts, self.known_vectors(texts))

    def background(self, vectors: np.ndarray) -> np.ndarray:
        """Each vector's mean cosine with the most frequent words: how much of a "hub" it is.

        Some words sit close to everything; subtracting this keeps them from attracting every
        clue (the CSLS correction of cross-lingual word retrieval).
        """
        hub: np.ndarray = vectors @ self.centre
        return hub


_lock = threading.Lock()
_loaded: dict[str, Vocab] = {}


def load_vocab(lang: str) -> Vocab:
    """The vocabulary of `lang`, loaded once per process."""
    if lang not in LANGUAGES:
        raise KeyError(f"no clue vocabulary for language {lang!r}")
    with _lock:
        if lang not in _loaded:
            with np.load(vocab_path(lang), allow_pickle=False) as data:
                words = tuple(str(w) for w in data["words"])
                vectors = data["vectors"].astype(np.float32) * data["scale"][:, None]
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                zipf = data["zipf"].astype(np.float32)
            index = {fold(w): i for i, w in reversed(list(enumerate(words)))}
            centre = vectors[:_BACKGROUND_WORDS].mean(axis=0)
            _loaded[lang] = Vocab(lang, words, vectors, zipf, index, centre)
        return _loaded[lang]
