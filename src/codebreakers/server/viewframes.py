"""The view frames of one game version, with what several viewers see alike encoded once.

A game's rules split each view into a part shared by every viewer of the same kind (a team's
members, the spectators) and the viewer's own few fields (`GameRules.view_parts`). A table of
six Decrypto players has four kinds: each kind's part, which holds nearly all of a view's bytes,
is encoded once per version, and each seat's frame is its own fields spliced in front of it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import msgspec

from codebreakers.games.base import JSON, Viewer, ViewParts
from codebreakers.server.messages import View, encode

_json = msgspec.json.Encoder().encode


def view_body(own: JSON, seen: bytes) -> msgspec.Raw:
    """One JSON object made of the viewer's own fields and its kind's encoded shared object."""
    if not own:
        return msgspec.Raw(seen)
    mine = _json(own)
    if seen == b"{}":
        return msgspec.Raw(mine)
    return msgspec.Raw(mine[:-1] + b"," + seen[1:])


class ViewFrames:
    """Frames of one version of a game; each kind's shared part is encoded on first use."""

    __slots__ = ("_encoded", "_parts", "game_id", "version")

    def __init__(self, parts: Callable[[Viewer], ViewParts], game_id: str, version: int) -> None:
        self._parts = parts
        self._encoded: dict[Hashable, bytes] = {}
        self.game_id = game_id
        self.version = version

    def frame(self, viewer: Viewer) -> str:
        kind, seen, own = self._parts(viewer)
        encoded = self._encoded.get(kind)
        if encoded is None:
            encoded = self._encoded[kind] = _json(seen)
        return encode(View(self.game_id, self.version, view_body(own, encoded)))
