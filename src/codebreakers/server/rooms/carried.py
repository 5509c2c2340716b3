"""What a bus notice carries between nodes (`bus.base`), to and from the store's own types.

A node publishes, beside the versions it has, the last rows it holds: the game's action rows,
the chat's lines, the room's document. A receiving node turns them back into the store's types
here and applies them as if it had read them from the store (`HeldRoom.read`, `RoomChat.read`).
They travel between server nodes only, the room document with its seat tokens' hashes and the
host's words, so nothing here goes to a socket: clients still get the views and descriptions
built from the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

import msgspec

from codebreakers.bus.base import MAX_ROWS, NULL, CarriedAction, CarriedLine
from codebreakers.server.rooms.model import Room
from codebreakers.store.base import ActionRow, ChatLine


class Took(StrEnum):
    """How a bus notice's news reached a node (a label of /metrics: stable values)."""

    NOTHING = "nothing"  # it had it all already (its own change, a duplicate, an old notice)
    CARRIED = "carried"  # from the notice alone, no store read
    STORE = "store"  # read from the store: a gap, nothing or not enough carried, a bad payload


_encode = msgspec.json.Encoder().encode
_decode_room = msgspec.json.Decoder(Room).decode


def encode_room(room: Room) -> msgspec.Raw:
    return msgspec.Raw(_encode(room))


def room(raw: msgspec.Raw, game: str) -> Room | None:
    """The carried document, or None when there is none or it isn't one of this room's (not a
    room, another schema, another game's)."""
    if raw == NULL:
        return None
    try:
        data = _decode_room(raw)
    except msgspec.DecodeError:
        return None
    return data if data.game == game else None


def actions(rows: Iterable[ActionRow], after: int) -> tuple[CarriedAction, ...]:
    """The rows above version `after`, the last `MAX_ROWS` of them."""
    kept = [r for r in rows if r.version > after][-MAX_ROWS:]
    return tuple(CarriedAction(r.version, r.seat, r.client_action_id, r.action, r.at) for r in kept)


def row(action: CarriedAction) -> ActionRow:
    return ActionRow(action.version, action.seat, action.client_action_id, action.action, action.at)


def lines(stored: Iterable[ChatLine], after: int) -> tuple[CarriedLine, ...]:
    """The lines above `after`, the last `MAX_ROWS` of them."""
    kept = [x for x in stored if x.seq > after][-MAX_ROWS:]
    return tuple(
        CarriedLine(x.seq, x.game_id, x.channel, x.seat, x.name, x.text, x.at, x.client_id)
        for x in kept
    )


def line(room_code: str, line: CarriedLine) -> ChatLine:
    return ChatLine(
        line.seq,
        room_code,
        line.game_id,
        line.channel,
        line.seat,
        line.name,
        line.text,
        line.at,
        line.client_id,
    )
