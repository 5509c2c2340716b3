"""Room options for Super Mastermind: validating untrusted JSON, presets, the typed form.

A preset only supplies defaults for the size: `"super"` (5 pegs, 8 colours, 12 rows, the
default) and `"classic"` (4 pegs, 6 colours, 10 rows). Explicit `pegs`, `colours` and `rows`
override it, within the ranges the solver is measured on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codebreakers.games.base import JSON, Rejection
from codebreakers.games.mastermind.rejections import RejectionCode, reject

PRESETS: dict[str, dict[str, int]] = {
    "super": {"pegs": 5, "colours": 8, "rows": 12},
    "classic": {"pegs": 4, "colours": 6, "rows": 10},
}
RANGES: dict[str, tuple[int, int]] = {
    "pegs": (3, 6),
    "colours": (5, 10),
    "rows": (8, 12),
    "rounds": (2, 10),
}
DEFAULTS: JSON = {
    "preset": "super",
    **PRESETS["super"],
    "rounds": 2,
    "manual_marking": False,
    "open_spectators": False,
    "rated": False,  # the room's, read by the server (docs/ratings.md); the engine ignores it
}


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options, as the engine reads them."""

    preset: str | None
    pegs: int
    colours: int
    rows: int
    rounds: int
    manual_marking: bool
    open_spectators: bool

    def to_json(self) -> JSON:
        return {
            "preset": self.preset,
            "pegs": self.pegs,
            "colours": self.colours,
            "rows": self.rows,
            "rounds": self.rounds,
            "manual_marking": self.manual_marking,
            "open_spectators": self.open_spectators,
        }


def _whole(key: str, value: object) -> Rejection | None:
    low, high = RANGES[key]
    if type(value) is not int or not low <= value <= high:
        return reject(RejectionCode.INVALID_OPTION, f"{key}: a whole number from {low} to {high}")
    if key == "rounds" and value % 2:
        return reject(
            RejectionCode.INVALID_OPTION, "rounds: an even number (each player makes as often)"
        )
    return None


def check_options(raw: Mapping[str, Any]) -> JSON | Rejection:
    """Validated options with defaults filled in (as JSON), or the first reason they are refused."""
    if not isinstance(raw, Mapping):
        return reject(RejectionCode.INVALID_OPTION, "options must be an object")
    unknown = sorted(str(key) for key in raw if key not in DEFAULTS)
    if unknown:
        return reject(RejectionCode.UNKNOWN_OPTION, unknown[0])
    preset = raw.get("preset", DEFAULTS["preset"])
    if preset is not None and preset not in PRESETS:
        return reject(RejectionCode.INVALID_OPTION, f"preset: null or one of {', '.join(PRESETS)}")
    merged = {**DEFAULTS, **(PRESETS[preset] if preset else {}), **raw}
    for key in RANGES:
        refused = _whole(key, merged[key])
        if refused is not None:
            return refused
    for key in ("manual_marking", "open_spectators", "rated"):
        if type(merged[key]) is not bool:
            return reject(RejectionCode.INVALID_OPTION, f"{key}: true or false")
    return merged


def to_options(checked: Mapping[str, Any]) -> Options:
    """The typed form of options that `check_options` accepted."""
    return Options(
        preset=checked["preset"],
        pegs=checked["pegs"],
        colours=checked["colours"],
        rows=checked["rows"],
        rounds=checked["rounds"],
        manual_marking=checked["manual_marking"],
        open_spectators=checked["open_spectators"],
    )
