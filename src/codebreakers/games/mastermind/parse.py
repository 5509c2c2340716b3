"""Untrusted action JSON -> a well-formed action (types and sizes), before any rule is asked.

Malformed input is not illegal play (ARCHITECTURE.md lesson 3): this module answers only "is it
an action at all". Whether the code fits the room's size, and whether the seat may act now, is
`apply`'s question, because only the state knows the size.
"""

from __future__ import annotations

from typing import Any

from codebreakers.games.base import JSON, Rejection
from codebreakers.games.mastermind import rejections as R

# The widest sizes any room allows (options.RANGES): longer codes or keys are malformed.
MAX_PEGS = 6
MAX_COLOURS = 10

ACTION_SHAPES: dict[str, tuple[frozenset[str], ...]] = {
    "set_code": (frozenset({"code"}), frozenset({"random"})),
    "guess": (frozenset({"code"}),),
    "mark": (frozenset({"black", "white"}),),
    "show_possible": (frozenset({"on"}),),
}


def _code(raw: object) -> list[int] | Rejection:
    if (
        not isinstance(raw, list)
        or not 1 <= len(raw) <= MAX_PEGS
        or not all(type(peg) is int and 0 <= peg < MAX_COLOURS for peg in raw)
    ):
        return R.reject(R.INVALID_CODE, f"a list of up to {MAX_PEGS} colours, each 0-9")
    return list(raw)


def parse_action(raw: Any) -> JSON | Rejection:
    """A well-formed action dict, or why it is not one."""
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        return R.reject(R.MALFORMED_ACTION, 'an object with a "type"')
    kind = raw["type"]
    shapes = ACTION_SHAPES.get(kind)
    if shapes is None:
        return R.reject(R.UNKNOWN_ACTION, kind[:40])
    fields = set(raw) - {"type"}
    if fields not in shapes:
        wanted = " or ".join(", ".join(sorted(shape)) for shape in shapes)
        return R.reject(R.MALFORMED_ACTION, f"{kind} takes exactly: {wanted}")
    if "code" in fields:
        code = _code(raw["code"])
        if isinstance(code, Rejection):
            return code
        return {"type": kind, "code": code}
    if kind == "set_code":
        if raw["random"] is not True:
            return R.reject(R.MALFORMED_ACTION, "random: true (or send a code)")
        return {"type": kind, "random": True}
    if kind == "mark":
        black, white = raw["black"], raw["white"]
        if not all(type(n) is int and 0 <= n <= MAX_PEGS for n in (black, white)):
            return R.reject(R.INVALID_KEYS, f"black and white: whole numbers from 0 to {MAX_PEGS}")
        return {"type": kind, "black": black, "white": white}
    if type(raw["on"]) is not bool:
        return R.reject(R.MALFORMED_ACTION, "on: true or false")
    return {"type": kind, "on": raw["on"]}
