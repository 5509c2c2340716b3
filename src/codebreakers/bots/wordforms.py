"""When two words are forms of one word: a conservative test shared by clue checks and vocabularies.

Decrypto forbids a clue that is a keyword or an inflection of one ("oceans", "зимой" for
"зима"), and a clue vocabulary should hold one form of each word. We have no morphology for
four languages, so this is a string test tuned to err on the side of "same word": a bot that
wrongly discards a candidate loses nothing, a bot that submits an inflection breaks a rule.
Hangul is compared as jamo, so "바닷가" (seashore) is seen to contain "바다" (sea).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from codebreakers.games.decrypto.words.folding import fold

# Shortest folded form (in letters, or jamo for Hangul) that counts as a word inside another.
_MIN_CONTAINED = 3


@lru_cache(maxsize=65536)
def root_key(word: str) -> str:
    """Folded (case, accents, spaces) and with Hangul syllables split into jamo."""
    return unicodedata.normalize("NFD", fold(word))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def same_root(a: str, b: str) -> bool:
    """Whether `a` and `b` look like forms of one word (inflection, derivation or compound).

    True when one starts or ends with the other, or when they share a prefix that leaves at
    most one letter (short words) or two letters (longer ones) of the shorter word unshared:
    "winter"/"winters", "banque"/"banquier", "зима"/"зимой", "fire"/"campfire".
    """
    ka, kb = root_key(a), root_key(b)
    if not ka or not kb:
        return False
    short, long_ = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
    if short == long_:
        return True
    if len(short) >= _MIN_CONTAINED and (long_.startswith(short) or long_.endswith(short)):
        return True
    slack = 1 if len(short) <= 5 else 2
    return _common_prefix(short, long_) >= max(_MIN_CONTAINED, len(short) - slack)
