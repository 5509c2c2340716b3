"""When two words are forms of one word: a conservative test shared by clue checks and vocabularies.

Decrypto forbids a clue that is a keyword or an inflection of one ("oceans", "зимой" for
"зима"), and a clue vocabulary should hold one form of each word. We have no morphology for
four languages, so this is a string test tuned to err on the side of "same word": a bot that
wrongly discards a candidate loses nothing, a bot that submits an inflection breaks a rule.
Hangul is compared as jamo, so "바닷가" (seashore) is seen to contain "바다" (sea). Derivations
that change a stem's spelling are compared once more with the usual alternations written as one
(`alternation_key`): French "soie"/"soyeux", "peau"/"pelage", "fleur"/"floral", Russian
"нога"/"ножной", "рука"/"ручной", "книга"/"книжный".
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


# Spelling alternations of a stem in derivation, each written as one form, in this order. French:
# i/y ("roi", "royal"; first, so "soyeux" keeps the i of "soie"), eau/el ("peau", "pelage"),
# eu/œu/o ("fleur", "floral"; "cœur", "cordial"). Russian: the consonant mutations г/ж/з, к/ч/ц,
# х/ш and ст/щ ("друг", "дружба"; "рука", "ручка"; "пустой", "пуща"), and the signs ь/ъ dropped.
_ALTERNATIONS = (
    ("y", "i"),
    ("œu", "o"),
    ("oeu", "o"),
    ("eau", "el"),
    ("eu", "o"),
    ("щ", "ст"),
    ("ж", "г"),
    ("з", "г"),
    ("ч", "к"),
    ("ц", "к"),
    ("ш", "х"),
    ("ь", ""),
    ("ъ", ""),
)


@lru_cache(maxsize=65536)
def alternation_key(word: str) -> str:
    """`root_key` with the stem alternations of _ALTERNATIONS written as one after its first
    letter (a stem changes inside, not where it starts: "зуб" is no form of "губа"). Latin and
    Cyrillic only: Hangul keys hold none of them."""
    key = root_key(word)
    head, rest = key[:1], key[1:]
    for written, one in _ALTERNATIONS:
        rest = rest.replace(written, one)
    return head + rest


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
    "winter"/"winters", "banque"/"banquier", "зима"/"зимой", "fire"/"campfire"; compared as
    written, then with the stem alternations written as one ("soie"/"soyeux").
    """
    ka, kb = root_key(a), root_key(b)
    if _same_key(ka, kb):
        return True
    alt_a, alt_b = alternation_key(a), alternation_key(b)
    # keys that no alternation changed were compared above
    return (alt_a, alt_b) != (ka, kb) and _same_key(alt_a, alt_b)


def _same_key(ka: str, kb: str) -> bool:
    if not ka or not kb:
        return False
    short, long_ = (ka, kb) if len(ka) <= len(kb) else (kb, ka)
    if short == long_:
        return True
    if len(short) >= _MIN_CONTAINED and (long_.startswith(short) or long_.endswith(short)):
        return True
    slack = 1 if len(short) <= 5 else 2
    return _common_prefix(short, long_) >= max(_MIN_CONTAINED, len(short) - slack)


# Normalised edit similarity from which two words are spelling-alikes ("ноль" is not a clue for
# "нож", nor "baker" for "banker"): the same line as `bot audit`'s check.
ALIKE_SIMILARITY = 0.67


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


@lru_cache(maxsize=65536)
def looks_alike(a: str, b: str) -> bool:
    """Whether `a` and `b` look or sound alike: an edit similarity (1 - distance / longer, on
    folded forms, Hangul as jamo) of ALIKE_SIMILARITY or more, or two short words (up to 3
    letters or jamo) of nearly one length that share their first two ("нож"/"ноль")."""
    ka, kb = root_key(a), root_key(b)
    if not ka or not kb:
        return False
    similarity = 1.0 - _edit_distance(ka, kb) / max(len(ka), len(kb))
    if similarity >= ALIKE_SIMILARITY:
        return True
    short = min(len(ka), len(kb)) <= 3 and max(len(ka), len(kb)) <= 4
    return short and abs(len(ka) - len(kb)) <= 1 and ka[:2] == kb[:2] and similarity >= 0.5
