"""One way to decide that two words are "the same word" for people typing on different keyboards.

Players write "Éclair", "eclair" and "ÉCLAIR " and mean one word; Russian players often type е
for ё. Custom word lists, and anything else that compares words typed by people, use `fold` so
that such spellings collide. Letters that are letters of their own alphabet rather than accented
variants (Russian й) are kept, so "мой" and "мои" stay different words.
"""

from __future__ import annotations

import unicodedata

# Precomposed letters whose diacritic makes a distinct letter, not an accent.
_KEPT_LETTERS = frozenset("йЙ")


def normalize(text: str) -> str:
    """NFC, trimmed, every run of whitespace collapsed to one space: how a word is stored."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def fold(text: str) -> str:
    """Comparison key: case, accents and spaces folded away ("Crème Brûlée" -> "cremebrulee")."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        if char in _KEPT_LETTERS:
            kept.append(char)
            continue
        kept.extend(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    joined = "".join(kept).casefold()
    return unicodedata.normalize("NFC", "".join(joined.split()))
