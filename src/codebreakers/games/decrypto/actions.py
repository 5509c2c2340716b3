"""Decrypto's actions: one msgspec Struct per kind, `DecryptoAction` their tagged union.

The JSON form of each (`{"type": kind, ...}`) is what game logs and golden records store, so a
field never changes name or meaning. Should the engine be compiled with mypyc again, leave this
module interpreted: mypyc turns a Struct subclass into a class msgspec does not know.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from codebreakers.games.base import Action
from codebreakers.games.decrypto.rejections import RejectionCode as Code

Digit = Annotated[int, Meta(ge=1, le=4)]
Number = Annotated[int, Meta(ge=1, le=4)]  # a keyword's number
Target = Literal["own", "enemy"]  # the own team's transmission (decode) or the enemy's

_CLUES = (Code.INVALID_CLUES, "a list of 3 texts")
_TARGET = (Code.INVALID_TARGET, "own or enemy")
_CODE = (Code.INVALID_CODE, "three different digits from 1 to 4")
_NUMBER = (Code.INVALID_NUMBER, "a keyword number from 1 to 4")


class Draft(Action, frozen=True, tag="draft"):
    """The encryptor's clues so far (the view answers with their warnings); blanks allowed."""

    clues: tuple[str, str, str]
    field_errors: ClassVar = {"clues": _CLUES}


class Transmit(Action, frozen=True, tag="transmit"):
    clues: tuple[str, str, str]
    field_errors: ClassVar = {"clues": _CLUES}


class Propose(Action, frozen=True, tag="propose"):
    """A member's suggestion for its team's answer (the decider locks one)."""

    target: Target
    code: tuple[Digit, Digit, Digit]
    field_errors: ClassVar = {"target": _TARGET, "code": _CODE}


class Lock(Action, frozen=True, tag="lock"):
    target: Target
    code: tuple[Digit, Digit, Digit]
    field_errors: ClassVar = {"target": _TARGET, "code": _CODE}


class Note(Action, frozen=True, tag="note"):
    """A seat's private note about one of the enemy's keywords."""

    number: Number
    text: str
    field_errors: ClassVar = {"number": _NUMBER, "text": (Code.MALFORMED_ACTION, "text: a string")}


class GuessKeywords(Action, frozen=True, tag="guess_keywords"):
    """The tie-break: the decider's four guesses of the enemy keywords."""

    words: tuple[str, str, str, str]
    field_errors: ClassVar = {"words": (Code.INVALID_GUESSES, "a list of 4 texts")}


class AcceptGuess(Action, frozen=True, tag="accept_guess"):
    """The keywords' owners accept (or take back) a near miss in the enemy's guesses."""

    number: Number
    accept: bool
    field_errors: ClassVar = {
        "number": _NUMBER,
        "accept": (Code.MALFORMED_ACTION, "accept: true or false"),
    }


class ReviewDone(Action, frozen=True, tag="review_done"):
    pass


class Timeout(Action, frozen=True, tag="timeout"):
    """Every passed deadline's consequence; only SYSTEM_SEAT may send it."""


DecryptoAction = (
    Draft | Transmit | Propose | Lock | Note | GuessKeywords | AcceptGuess | ReviewDone | Timeout
)
KINDS: tuple[type[Action], ...] = (
    *(Draft, Transmit, Propose, Lock, Note, GuessKeywords, AcceptGuess, ReviewDone, Timeout),
)
