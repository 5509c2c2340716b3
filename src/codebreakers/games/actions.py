"""Decoding a game's actions: untrusted JSON -> one Struct of the game's tagged union, once.

msgspec checks the types and bounds each kind declares; this module turns what it refuses into
the game's stable rejection codes, which do not depend on msgspec's messages or on the order of
the fields in the input:
- not an object, or no text "type": `malformed`; a "type" no kind has: `unknown`;
- a field the kind doesn't have: `malformed` (the kind's `shapes`, if it declares them, must
  match the fields given exactly);
- a field missing or of the wrong type: the code (and detail) its kind lists for it in
  `field_errors` (base.Action), for the first such field in the kind's own order.
What only a value shows (text too long once normalised, a code's repeated digit) the game checks
after decoding (its `parse_action`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_type_hints

import msgspec

from codebreakers.games.base import Action, Rejection


@dataclass(frozen=True, slots=True)
class _Spec:
    cls: type[Action]
    fields: frozenset[str]
    shapes: tuple[frozenset[str], ...] | None
    # (field, its type, code, detail), in the kind's field order.
    checks: tuple[tuple[str, Any, str, str], ...]


class ActionDecoder:
    """Decodes the kinds of one game's union; `malformed` and `unknown` are the game's codes."""

    def __init__(self, kinds: Sequence[type[Action]], malformed: str, unknown: str) -> None:
        self.malformed = malformed
        self.unknown = unknown
        self._specs: dict[str, _Spec] = {}
        for kind in kinds:
            tag = kind.__struct_config__.tag
            assert isinstance(tag, str), kind
            hints = get_type_hints(kind, include_extras=True)
            names = kind.__struct_fields__
            checks = tuple(
                (name, hints[name], *kind.field_errors.get(name, (malformed, name)))
                for name in names
            )
            self._specs[tag] = _Spec(kind, frozenset(names), kind.shapes, checks)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self._specs)

    def decode(self, raw: Any) -> Action | Rejection:
        """The action `raw` is, types and bounds checked, or the first thing wrong with it."""
        kind = raw.get("type") if isinstance(raw, dict) else None
        if not isinstance(kind, str):
            return Rejection(self.malformed, 'an object with a "type"')
        spec = self._specs.get(kind)
        if spec is None:
            return Rejection(self.unknown, kind[:40])
        try:
            action: Action = msgspec.convert(raw, spec.cls)  # unknown fields refused too
        except msgspec.ValidationError:
            return self._first_error(spec, raw)
        if spec.shapes is not None and raw.keys() - {"type"} not in spec.shapes:
            return self._wrong_shape(spec)  # optional fields left out, or both given
        return action

    def _wrong_shape(self, spec: _Spec) -> Rejection:
        wanted = " or ".join(", ".join(sorted(shape)) for shape in spec.shapes or ())
        return Rejection(
            self.malformed, f"{spec.cls.__struct_config__.tag} takes exactly: {wanted}"
        )

    def _first_error(self, spec: _Spec, raw: Mapping[str, Any]) -> Rejection:
        """Why msgspec refused `raw`: a field the kind lacks (or the wrong set of fields, for a
        kind with shapes) first, then the first bad field in the kind's order."""
        given = raw.keys() - {"type"}
        if spec.shapes is not None:
            if given not in spec.shapes:
                return self._wrong_shape(spec)
        elif not given <= spec.fields:
            extra = sorted(given - spec.fields)[0][:40]
            return Rejection(self.malformed, f"unexpected field {extra}")
        for name, hint, code, detail in spec.checks:
            if name not in raw:
                if spec.shapes is None:
                    return Rejection(code, detail)
                continue  # an optional field another shape leaves out
            try:
                msgspec.convert(raw[name], hint)
            except msgspec.ValidationError:
                return Rejection(code, detail)
        # msgspec refused a combination that no single field shows (no kind has one yet)
        return Rejection(self.malformed, "the fields do not fit together")
