"""What makes a clue unfit for a bot to give: the engine's checks plus the bot's stricter ones.

A bot never submits a clue the server would refuse or warn about. On top of the engine's own
checks it refuses what only a careful human would catch: any form of a keyword ("зимой" for
"зима", "campfire" for "fire", see wordforms.py), a word that looks or sounds like one ("ноль"
for "нож"), and a word so close in meaning to a keyword across languages that it reads as its
translation ("océan" for "ocean").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from codebreakers.bots.embeddings import TEXTS
from codebreakers.bots.wordforms import looks_alike, same_root
from codebreakers.games.decrypto.clues import clue_key, clue_warnings

# Cosine at or above which a clue reads as the keyword in another language. Measured with USE:
# translations of single nouns score 0.79-0.95 ("ocean"/"바다" 0.80, "winter"/"hiver" 0.95),
# close synonyms 0.75-0.82 ("ocean"/"sea" 0.81), ordinary good clues 0.45-0.70.
TRANSLATION_COSINE = 0.85
# Bots stay below this similarity to a keyword, a margin under the translation line.
BOT_MAX_COSINE = 0.78


def looks_like_translation(clue: str, keywords: Sequence[str]) -> bool:
    """Whether `clue` reads as one of `keywords` in another language.

    Fits the engine's `TranslationCheck` hook (games/decrypto/clues.py), so the server can warn
    people about translations with the same model the bots use.
    """
    if not clue.strip() or not keywords:
        return False
    vectors = TEXTS.embed([clue, *keywords])
    return bool(np.max(vectors[1:] @ vectors[0]) >= TRANSLATION_COSINE)


def used_keys(clues: Iterable[str]) -> frozenset[str]:
    """The comparison keys of the clues given so far in a game."""
    return frozenset(clue_key(c) for c in clues)


def bot_may_give(clue: str, keywords: Sequence[str], used_keys: frozenset[str]) -> bool:
    """The string-level checks: not used, no warning from the engine, no form of a keyword
    nor a word that looks or sounds like one (the clue or any word of it: "잔잔한 물" is no
    clue beside the keyword 그물, as `bot audit` checks)."""
    if clue_key(clue) in used_keys:
        return False
    parts = {clue, *clue.split()}
    if any(same_root(p, k) or looks_alike(p, k) for p in parts for k in keywords):
        return False
    return not clue_warnings(clue, tuple(keywords), used_keys)
