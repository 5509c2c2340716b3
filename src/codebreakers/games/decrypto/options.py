"""Room options for Decrypto: validating untrusted JSON, defaults, the typed form for the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codebreakers.games.base import JSON, Rejection
from codebreakers.games.decrypto.rejections import RejectionCode, reject
from codebreakers.games.decrypto.words import CUSTOM_MIN_WORDS, POOL_LANGUAGES, validate_custom

ORDERS = ("simultaneous", "classic")
WORD_SOURCES = (*POOL_LANGUAGES, "custom")
# Bounds for the optional limits, in seconds: long enough to type, short enough to matter.
LIMIT_MIN_S = 10
LIMIT_MAX_S = 3600
SAND_TIMER_S = 30.0

DEFAULTS: JSON = {
    "words": "en",
    "custom_words": None,
    "order": "simultaneous",
    "three_player": False,
    "sand_timer": False,
    "clue_limit_s": None,
    "decide_limit_s": None,
    "open_spectators": False,
    "rated": False,  # the room's, read by the server (docs/ratings.md); the engine ignores it
}


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options, as the engine reads them."""

    words: str
    custom_words: tuple[str, ...] | None
    classic: bool
    three_player: bool
    sand_timer: bool
    clue_limit_s: int | None
    decide_limit_s: int | None
    open_spectators: bool

    @property
    def max_rounds(self) -> int:
        return 5 if self.three_player else 8

    def to_json(self) -> JSON:
        return {
            "words": self.words,
            "custom_words": list(self.custom_words) if self.custom_words is not None else None,
            "order": "classic" if self.classic else "simultaneous",
            "three_player": self.three_player,
            "sand_timer": self.sand_timer,
            "clue_limit_s": self.clue_limit_s,
            "decide_limit_s": self.decide_limit_s,
            "open_spectators": self.open_spectators,
        }


def _limit(key: str, value: object) -> Rejection | None:
    if value is None:
        return None
    if type(value) is not int or not LIMIT_MIN_S <= value <= LIMIT_MAX_S:
        return reject(
            RejectionCode.INVALID_OPTION,
            f"{key}: null or whole seconds from {LIMIT_MIN_S} to {LIMIT_MAX_S}",
        )
    return None


def check_options(
    raw: Mapping[str, Any], custom_minimum: int = CUSTOM_MIN_WORDS
) -> JSON | Rejection:
    """Validated options with defaults filled in (as JSON), or the first reason they are refused.

    `custom_minimum`: how many distinct words a custom list needs (lower only for a game's
    stored setup, see `validate_custom`)."""
    if not isinstance(raw, Mapping):
        return reject(RejectionCode.INVALID_OPTION, "options must be an object")
    unknown = sorted(str(key) for key in raw if key not in DEFAULTS)
    if unknown:
        return reject(RejectionCode.UNKNOWN_OPTION, unknown[0])
    merged = {**DEFAULTS, **raw}
    if merged["words"] not in WORD_SOURCES:
        return reject(RejectionCode.INVALID_OPTION, f"words: one of {', '.join(WORD_SOURCES)}")
    if merged["order"] not in ORDERS:
        return reject(RejectionCode.INVALID_OPTION, "order: simultaneous or classic")
    for key in ("three_player", "sand_timer", "open_spectators", "rated"):
        if type(merged[key]) is not bool:
            return reject(RejectionCode.INVALID_OPTION, f"{key}: true or false")
    for key in ("clue_limit_s", "decide_limit_s"):
        refused = _limit(key, merged[key])
        if refused is not None:
            return refused
    if merged["words"] == "custom":
        words = validate_custom(merged["custom_words"], custom_minimum)
        if isinstance(words, Rejection):
            return reject(RejectionCode.INVALID_CUSTOM_WORDS, f"{words.code}: {words.detail}")
        merged["custom_words"] = list(words)
    elif merged["custom_words"] is not None:
        return reject(RejectionCode.INVALID_OPTION, 'custom_words: only with words "custom"')
    return merged


def to_options(checked: Mapping[str, Any]) -> Options:
    """The typed form of options that `check_options` accepted."""
    custom = checked["custom_words"]
    return Options(
        words=checked["words"],
        custom_words=tuple(custom) if custom is not None else None,
        classic=checked["order"] == "classic",
        three_player=checked["three_player"],
        sand_timer=checked["sand_timer"],
        clue_limit_s=checked["clue_limit_s"],
        decide_limit_s=checked["decide_limit_s"],
        open_spectators=checked["open_spectators"],
    )
