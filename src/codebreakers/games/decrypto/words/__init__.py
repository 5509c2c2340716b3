"""Decrypto keyword pools: our own lists per language, and the check for a host's pasted list.

The pools are plain text files shipped as package data (one NFC word per line) so that a
translator can review them without reading code; docs/words.md says how they were made.
A custom list is untrusted browser input: it is normalised and bounded here, and refused with a
stable code when it cannot make a fair game: a game deals 8 distinct keywords, and a host's new
list needs many more, since everyone knows a team's keywords come from it (docs/rules-choices.md).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from codebreakers.games.base import Rejection
from codebreakers.games.decrypto.words.folding import match_key, normalize

POOL_LANGUAGES = ("en", "fr", "ru", "ko")

# A game deals four keywords to each of two teams, never sharing one.
DEAL_WORDS = 8
# A host's new list: with N words a team's enemy keywords are 4 of the N - 4 it doesn't hold;
# at 24, 4 in 20 (docs/rules-choices.md has the numbers).
CUSTOM_MIN_WORDS = 24
CUSTOM_MAX_WORDS = 2000
CUSTOM_MAX_WORD_CHARS = 40

# C0/C1 controls, line/paragraph separators, zero-width and bidi controls: never part of a word.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
# What separates words in a pasted list: line breaks, commas and semicolons (also full-width).
_PASTE_SEPARATORS = re.compile("[\r\n,;\u3001\uff0c\uff1b]+")


@cache
def load_pool(lang: str) -> tuple[str, ...]:
    """The keyword pool for `lang`, in file order; KeyError for a language we have no pool for."""
    if lang not in POOL_LANGUAGES:
        raise KeyError(f"no keyword pool for language {lang!r}")
    text = resources.files(__name__).joinpath(f"{lang}.txt").read_text(encoding="utf-8")
    return tuple(word for word in (normalize(line) for line in text.splitlines()) if word)


def split_pasted(text: str) -> list[str]:
    """A host's pasted text as candidate words: one per line, or separated by commas/semicolons."""
    return _PASTE_SEPARATORS.split(text)


def validate_custom(words: object, minimum: int = CUSTOM_MIN_WORDS) -> tuple[str, ...] | Rejection:
    """A host's list as the distinct words a game may deal (first spelling kept), or a refusal.

    Words are normalised (NFC, trimmed, inner whitespace, tabs and line breaks collapsed to one
    space) and empty entries dropped; two words are the same when they have the same
    `match_key` (case, accents, spaces, hyphens, invisible characters). `minimum` is DEAL_WORDS
    only for a game's stored setup, so that games dealt before the minimum rose still replay.
    """
    if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
        return Rejection("custom_words_invalid", "the custom list must be a list of words")
    entries = [normalize(word) for word in words]
    if any(_CONTROL.search(word) for word in entries):
        return Rejection("custom_words_invalid", "a word contains a control character")
    entries = [word for word in entries if match_key(word)]
    if len(entries) > CUSTOM_MAX_WORDS:
        return Rejection("custom_words_too_many", f"at most {CUSTOM_MAX_WORDS} words")
    too_long = next((word for word in entries if len(word) > CUSTOM_MAX_WORD_CHARS), None)
    if too_long is not None:
        return Rejection(
            "custom_word_too_long",
            f"{too_long[:CUSTOM_MAX_WORD_CHARS]}… is over {CUSTOM_MAX_WORD_CHARS} characters",
        )
    distinct: dict[str, str] = {}
    for word in entries:
        distinct.setdefault(match_key(word), word)
    if len(distinct) < minimum:
        return Rejection(
            "custom_words_too_few",
            f"{len(distinct)} distinct words; a list needs at least {minimum}",
        )
    return tuple(distinct.values())
