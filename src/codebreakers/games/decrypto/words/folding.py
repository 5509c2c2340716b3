"""When two spellings are one word, for people typing on different keyboards.

Players write "Éclair", "eclair" and "ÉCLAIR " and mean one word; Russian players often type е
for ё; phones and pasted text bring full-width letters ("ｃａｔ") and invisible characters (a
soft hyphen, a zero-width space). Three keys, from the loosest:

- `match_key`: case, accents, spaces and hyphens folded away. What "the same clue" (reuse), "the
  same guess" (tie-break) and "the same word" of a custom list mean (RULES.md says "after case,
  accent and space folding").
- `fold`: the same, hyphens kept (the bots' vocabularies are keyed by it).
- `spelling`: only what never makes a different word: compatibility forms, invisible
  characters, case, and ё written as е (Russian spelling leaves ё optional). Accents stay: in
  French they make different words ("maïs" corn, "mais" but). The clue refusal compares these.

Letters that are letters of their own alphabet rather than accented variants (Russian й) are
kept by every key, so "мой" and "мои" stay different words.
"""

from __future__ import annotations

import re
import unicodedata

# Precomposed letters whose diacritic makes a distinct letter, not an accent.
_KEPT_LETTERS = frozenset("йЙ")
# Drawn as nothing: every format character (category Cf: soft hyphen, zero-width and bidi
# controls, word joiner, BOM, tags... as of Unicode 15, checked by tests/words/test_folding.py),
# the combining grapheme joiner, Hangul fillers and the variation selectors.
_INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f"
    "\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)
_RUSSIAN_YO = str.maketrans("ё", "е")


def visible(text: str) -> str:
    """NFKC (full-width and other compatibility forms as their plain letters), then every
    invisible character dropped (soft hyphen, zero-width and bidi controls, selectors...)."""
    return _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))


def normalize(text: str) -> str:
    """NFC, trimmed, every run of whitespace collapsed to one space: how a word is stored."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def spelling(text: str) -> str:
    """A text as spelled, whatever the keyboard: `visible`, case folded, ё as е, NFC; accents
    and spaces kept."""
    folded = unicodedata.normalize("NFC", visible(text).casefold())
    return folded.translate(_RUSSIAN_YO)


def fold(text: str) -> str:
    """Comparison key: case, accents and spaces folded away ("Crème Brûlée" -> "cremebrulee")."""
    kept: list[str] = []
    for char in unicodedata.normalize("NFC", visible(text)):
        if char in _KEPT_LETTERS:
            kept.append(char)
            continue
        kept.extend(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    joined = "".join(kept).casefold()
    return unicodedata.normalize("NFC", "".join(joined.split()))


def match_key(text: str) -> str:
    """`fold` with hyphens and dashes dropped too: "arc-en-ciel", "arc en ciel" and "arcenciel"
    are one clue, one guess, one word of a list."""
    return "".join(c for c in fold(text) if unicodedata.category(c) != "Pd")
