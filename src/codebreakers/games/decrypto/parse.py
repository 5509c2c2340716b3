"""Untrusted action JSON -> a well-formed action (types and sizes), before any rule is asked.

Malformed input is not illegal play (ARCHITECTURE.md lesson 3): this module answers only "is it
an action at all"; whether the seat may do it now is `apply`'s question.
"""

from __future__ import annotations

import re
from typing import Any

from codebreakers.games.base import JSON, Rejection
from codebreakers.games.decrypto import rejections as R
from codebreakers.games.decrypto.codes import parse_code
from codebreakers.games.decrypto.words.folding import normalize

CLUE_MAX_CHARS = 60
NOTE_MAX_CHARS = 200
GUESS_MAX_CHARS = 60
TARGETS = ("own", "enemy")
# Controls and invisible format characters never belong in a clue, a note or a guess.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")

_FIELDS: dict[str, frozenset[str]] = {
    "draft": frozenset({"clues"}),
    "transmit": frozenset({"clues"}),
    "propose": frozenset({"target", "code"}),
    "lock": frozenset({"target", "code"}),
    "note": frozenset({"number", "text"}),
    "guess_keywords": frozenset({"words"}),
    "accept_guess": frozenset({"number", "accept"}),
    "review_done": frozenset(),
    "timeout": frozenset(),
}


def clean_text(raw: str) -> str:
    """Stored form of typed text: no control characters, NFC, whitespace collapsed."""
    if raw.isascii() and raw.isprintable():  # the common case, without regex or NFC
        return " ".join(raw.split())
    return normalize(_CONTROL.sub(" ", raw))


def _texts(raw: object, count: int, max_chars: int, code: str) -> list[str] | Rejection:
    if not isinstance(raw, list) or len(raw) != count or not all(isinstance(t, str) for t in raw):
        return R.reject(code, f"a list of {count} texts")
    texts = [clean_text(text) for text in raw]
    for index, text in enumerate(texts, start=1):
        if len(text) > max_chars:
            return R.reject(R.TEXT_TOO_LONG, f"text {index}: at most {max_chars} characters")
    return texts


def _number(raw: object) -> int | Rejection:
    if type(raw) is not int or not 1 <= raw <= 4:
        return R.reject(R.INVALID_NUMBER, "a keyword number from 1 to 4")
    return raw


def parse_action(raw: Any) -> JSON | Rejection:
    """A well-formed action dict with normalised fields, or why it is not one."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return R.reject(R.MALFORMED_ACTION, 'an object with a "type"')
    kind = raw["type"]
    fields = _FIELDS.get(kind)
    if fields is None:
        return R.reject(R.UNKNOWN_ACTION, kind[:40])
    extra = sorted(set(raw) - fields - {"type"})
    if extra:
        return R.reject(R.MALFORMED_ACTION, f"unexpected field {extra[0][:40]}")
    action: JSON = {"type": kind}
    if kind in ("draft", "transmit"):
        clues = _texts(raw.get("clues"), 3, CLUE_MAX_CHARS, R.INVALID_CLUES)
        if isinstance(clues, Rejection):
            return clues
        action["clues"] = clues
    elif kind in ("propose", "lock"):
        if raw.get("target") not in TARGETS:
            return R.reject(R.INVALID_TARGET, "own or enemy")
        code = parse_code(raw.get("code"))
        if code is None:
            return R.reject(R.INVALID_CODE, "three different digits from 1 to 4")
        action["target"] = raw["target"]
        action["code"] = list(code)
    elif kind == "note":
        number = _number(raw.get("number"))
        if isinstance(number, Rejection):
            return number
        text = raw.get("text")
        if not isinstance(text, str):
            return R.reject(R.MALFORMED_ACTION, "text: a string")
        action["number"] = number
        action["text"] = clean_text(text)
        if len(action["text"]) > NOTE_MAX_CHARS:
            return R.reject(R.TEXT_TOO_LONG, f"at most {NOTE_MAX_CHARS} characters")
    elif kind == "guess_keywords":
        guesses = _texts(raw.get("words"), 4, GUESS_MAX_CHARS, R.INVALID_GUESSES)
        if isinstance(guesses, Rejection):
            return guesses
        action["words"] = guesses
    elif kind == "accept_guess":
        number = _number(raw.get("number"))
        if isinstance(number, Rejection):
            return number
        if type(raw.get("accept")) is not bool:
            return R.reject(R.MALFORMED_ACTION, "accept: true or false")
        action["number"] = number
        action["accept"] = raw["accept"]
    return action
