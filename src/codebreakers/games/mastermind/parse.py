"""Untrusted action JSON -> a well-formed action (types and sizes), before any rule is asked.

Malformed input is not illegal play (ARCHITECTURE.md lesson 3): this module answers only "is it
an action at all". Whether the code fits the room's size, and whether the seat may act now, is
`apply`'s question, because only the state knows the size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from codebreakers.games.actions import ActionDecoder
from codebreakers.games.base import Rejection
from codebreakers.games.mastermind.actions import (
    KINDS,
    Guess,
    Mark,
    MastermindAction,
    SetCode,
    ShowPossible,
)
from codebreakers.games.mastermind.rejections import RejectionCode, reject

_DECODER = ActionDecoder(KINDS, RejectionCode.MALFORMED_ACTION, RejectionCode.UNKNOWN_ACTION)
# Each kind -> the exact field sets it takes (docs/mastermind.md lists them).
ACTION_SHAPES: dict[str, tuple[frozenset[str], ...]] = {
    tag: kind.shapes or () for tag, kind in zip(_DECODER.tags, KINDS, strict=True)
}


def parse_action(raw: Any) -> MastermindAction | Rejection:
    """A well-formed action, or why it is not one."""
    action = _DECODER.decode(raw)
    match action:
        case Rejection():
            return action
        case SetCode(random=random) if random is False:
            return reject(RejectionCode.MALFORMED_ACTION, "random: true (or send a code)")
        case SetCode() | Guess() | Mark() | ShowPossible():
            return action
    raise AssertionError(f"not a Mastermind action: {action!r}")


def load_action(stored: Mapping[str, Any]) -> MastermindAction:
    """A stored action (checked when it was first applied) as its Struct."""
    action: MastermindAction = msgspec.convert(stored, MastermindAction)
    return action
