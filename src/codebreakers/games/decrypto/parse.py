"""Untrusted action JSON -> a well-formed action (types and sizes), before any rule is asked.

Malformed input is not illegal play (ARCHITECTURE.md lesson 3): this module answers only "is it
an action at all"; whether the seat may do it now is `apply`'s question. The decoder
(games/actions.py) checks what the kinds' types say; this module then normalises typed text and
checks what only the values show.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from codebreakers.games.actions import ActionDecoder
from codebreakers.games.base import Rejection
from codebreakers.games.decrypto.actions import (
    KINDS,
    AcceptGuess,
    DecryptoAction,
    Draft,
    GuessKeywords,
    Lock,
    Note,
    Propose,
    ReviewDone,
    Timeout,
    Transmit,
)
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.words.folding import normalize

CLUE_MAX_CHARS = 60
NOTE_MAX_CHARS = 200
GUESS_MAX_CHARS = 60
# Controls and invisible format characters never belong in a clue, a note or a guess.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")

_DECODER = ActionDecoder(KINDS, RejectionCode.MALFORMED_ACTION, RejectionCode.UNKNOWN_ACTION)


def clean_text(raw: str) -> str:
    """Stored form of typed text: no control characters, NFC, whitespace collapsed."""
    if raw.isascii() and raw.isprintable():  # the common case, without regex or NFC
        return " ".join(raw.split())
    return normalize(_CONTROL.sub(" ", raw))


def _texts(raw: tuple[str, ...], max_chars: int) -> tuple[str, ...] | Rejection:
    texts = tuple(clean_text(text) for text in raw)
    for index, text in enumerate(texts, start=1):
        if len(text) > max_chars:
            return reject(
                RejectionCode.TEXT_TOO_LONG, f"text {index}: at most {max_chars} characters"
            )
    return texts


def parse_action(raw: Any) -> DecryptoAction | Rejection:
    """A well-formed action with normalised text, or why it is not one."""
    action = _DECODER.decode(raw)
    match action:
        case Rejection():
            return action
        case Draft(clues) | Transmit(clues):
            cleaned = _texts(clues, CLUE_MAX_CHARS)
            if isinstance(cleaned, Rejection):
                return cleaned
            if cleaned == clues:
                return action
            return type(action)((cleaned[0], cleaned[1], cleaned[2]))
        case Propose(code=code) | Lock(code=code):
            if len(set(code)) != 3:
                return reject(RejectionCode.INVALID_CODE, "three different digits from 1 to 4")
            return action
        case Note(number, text):
            stored = clean_text(text)
            if len(stored) > NOTE_MAX_CHARS:
                return reject(RejectionCode.TEXT_TOO_LONG, f"at most {NOTE_MAX_CHARS} characters")
            return action if stored == text else Note(number, stored)
        case GuessKeywords(words):
            guesses = _texts(words, GUESS_MAX_CHARS)
            if isinstance(guesses, Rejection):
                return guesses
            if guesses == words:
                return action
            return GuessKeywords((guesses[0], guesses[1], guesses[2], guesses[3]))
        case AcceptGuess() | ReviewDone() | Timeout():
            return action
    raise AssertionError(f"not a Decrypto action: {action!r}")


def load_action(stored: Mapping[str, Any]) -> DecryptoAction:
    """A stored action (normalised and checked when it was first applied) as its Struct."""
    action: DecryptoAction = msgspec.convert(stored, DecryptoAction)
    return action
