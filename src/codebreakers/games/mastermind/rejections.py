"""Every stable rejection code the Mastermind engine returns (docs/mastermind.md explains each).

The web client translates these codes and bots branch on them, so a code never changes meaning;
new situations get new codes.
"""

from __future__ import annotations

from enum import StrEnum, unique

from codebreakers.games.base import Rejection


@unique
class RejectionCode(StrEnum):
    """A member equals, and is serialised as, its value: the string on the wire and in logs."""

    # Options and setup.
    UNKNOWN_OPTION = "unknown_option"
    INVALID_OPTION = "invalid_option"
    INVALID_SETUP = "invalid_setup"
    INVALID_TEAMS = "invalid_teams"
    # Malformed actions (parse_action).
    MALFORMED_ACTION = "malformed_action"
    UNKNOWN_ACTION = "unknown_action"
    INVALID_CODE = "invalid_code"
    INVALID_KEYS = "invalid_keys"
    # Who may act, and when.
    GAME_OVER = "game_over"
    NOT_A_PLAYER = "not_a_player"
    WRONG_PHASE = "wrong_phase"
    NOT_MAKER = "not_maker"
    NOT_BREAKER = "not_breaker"
    # Against the room's size.
    WRONG_CODE_LENGTH = "wrong_code_length"
    COLOUR_OUT_OF_RANGE = "colour_out_of_range"
    TOO_MANY_KEYS = "too_many_keys"


REJECTION_CODES: frozenset[str] = frozenset(RejectionCode)


def reject(code: RejectionCode, detail: str = "") -> Rejection:
    return Rejection(code, detail)
