"""Every stable rejection code the Decrypto engine returns (docs/views.md explains each one).

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
    INVALID_CUSTOM_WORDS = "invalid_custom_words"
    INVALID_SETUP = "invalid_setup"
    INVALID_TEAMS = "invalid_teams"
    # Malformed actions (parse_action).
    MALFORMED_ACTION = "malformed_action"
    UNKNOWN_ACTION = "unknown_action"
    INVALID_CLUES = "invalid_clues"
    TEXT_TOO_LONG = "text_too_long"
    INVALID_CODE = "invalid_code"
    INVALID_TARGET = "invalid_target"
    INVALID_NUMBER = "invalid_number"
    INVALID_GUESSES = "invalid_guesses"
    # Who may act.
    GAME_OVER = "game_over"
    NOT_A_PLAYER = "not_a_player"
    WRONG_PHASE = "wrong_phase"
    NOT_ENCRYPTOR = "not_encryptor"
    NOT_DECIDER = "not_decider"
    ENCRYPTOR_CANNOT_DECODE = "encryptor_cannot_decode"
    SYSTEM_ONLY = "system_only"
    # Transmissions and clues.
    ALREADY_TRANSMITTED = "already_transmitted"
    BLANK_CLUE = "blank_clue"
    CLUE_REUSED = "clue_reused"
    CLUE_IS_KEYWORD = "clue_is_keyword"
    # Decoding and intercepting.
    NOT_TRANSMITTED = "not_transmitted"
    NO_INTERCEPTION = "no_interception"
    OWN_DECODE_FIRST = "own_decode_first"
    ALREADY_LOCKED = "already_locked"
    # Tie-break.
    ALREADY_GUESSED = "already_guessed"
    ALREADY_REVIEWED = "already_reviewed"
    EXACT_MATCH = "exact_match"
    # Timers.
    NO_DEADLINE_PASSED = "no_deadline_passed"


REJECTION_CODES: frozenset[str] = frozenset(RejectionCode)


def reject(code: RejectionCode, detail: str = "") -> Rejection:
    return Rejection(code, detail)
