"""Mastermind's actions: one msgspec Struct per kind, `MastermindAction` their tagged union.

The JSON form of each (`{"type": kind, ...}`) is what game logs store, so a field never changes
name or meaning. Every kind takes exactly the fields of one of its `shapes`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

from msgspec import UNSET, Meta, UnsetType

from codebreakers.games.base import Action
from codebreakers.games.mastermind.rejections import RejectionCode as Code

# The widest sizes any room allows (options.RANGES): longer codes or keys are malformed.
MAX_PEGS = 6
MAX_COLOURS = 10

Colour = Annotated[int, Meta(ge=0, le=MAX_COLOURS - 1)]
Colours = Annotated[tuple[Colour, ...], Meta(min_length=1, max_length=MAX_PEGS)]
KeyCount = Annotated[int, Meta(ge=0, le=MAX_PEGS)]

_CODE = (Code.INVALID_CODE, f"a list of up to {MAX_PEGS} colours, each 0-9")
_KEYS = (Code.INVALID_KEYS, f"black and white: whole numbers from 0 to {MAX_PEGS}")


class SetCode(Action, frozen=True, tag="set_code"):
    """The maker's secret code, or `random: true` for one drawn from the match seed."""

    code: Colours | UnsetType = UNSET
    random: bool | UnsetType = UNSET
    shapes: ClassVar = (frozenset({"code"}), frozenset({"random"}))
    field_errors: ClassVar = {
        "code": _CODE,
        "random": (Code.MALFORMED_ACTION, "random: true (or send a code)"),
    }


class Guess(Action, frozen=True, tag="guess"):
    code: Colours
    shapes: ClassVar = (frozenset({"code"}),)
    field_errors: ClassVar = {"code": _CODE}


class Mark(Action, frozen=True, tag="mark"):
    """The maker's keys for the last row (manual marking)."""

    black: KeyCount
    white: KeyCount
    shapes: ClassVar = (frozenset({"black", "white"}),)
    field_errors: ClassVar = {"black": _KEYS, "white": _KEYS}


class ShowPossible(Action, frozen=True, tag="show_possible"):
    """The seat's own preference: the "codes still possible" counter on or off."""

    on: bool
    shapes: ClassVar = (frozenset({"on"}),)
    field_errors: ClassVar = {"on": (Code.MALFORMED_ACTION, "on: true or false")}


MastermindAction = SetCode | Guess | Mark | ShowPossible
KINDS: tuple[type[Action], ...] = (SetCode, Guess, Mark, ShowPossible)
