"""'Room R changed' notifications between server nodes; the store stays the truth.

A notice says how far a room has gone (`{"room": code, "room_version": n, "game_id": id,
"game_version": v, "chat_seq": s}` on the wire, a `Notice` in code) and may carry what its
sender stored last to get there: the room's document at `room_version`, the game's last action
rows up to `game_version`, the chat's last lines up to `chat_seq`. A receiver that holds exactly
the version before applies what is carried without reading the store (the hop between nodes);
on a gap, or with nothing carried, it reads the store as it would for a bare hint. Delivery is
at-most-once and a notice is never trusted over the store: everything carried is bounded here
(`MAX_BYTES`, `MAX_ROWS`, the fields' lengths), checked again by the receiver (the rules judge
every carried action, the document decodes as a room), and anything that fails makes the
receiver read the store instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

import msgspec

# A notice's encoded size at most: over it the sender publishes the bare versions, a receiver
# decodes only them (the store has the rest). A table's few last actions, a chat line or two
# and a room document fit many times over.
MAX_BYTES = 16_384
MAX_ROWS = 16  # action rows or chat lines carried, at most each
NULL = msgspec.Raw(b"null")  # no room document carried

Short = Annotated[str, msgspec.Meta(max_length=200)]
Version = Annotated[int, msgspec.Meta(ge=1)]


class CarriedAction(msgspec.Struct, frozen=True):
    """One stored action row (the store's `ActionRow`), as its author appended it."""

    version: Version
    seat: Short
    client_action_id: Short | None
    action: dict[str, Any]
    at: float


class CarriedLine(msgspec.Struct, frozen=True):
    """One stored chat line (the store's `ChatLine`), as its author appended it."""

    seq: Version
    game_id: Short | None
    channel: Annotated[str, msgspec.Meta(pattern="^(all|team:.{1,100})$")]
    seat: Short | None
    name: Short
    text: Annotated[str, msgspec.Meta(max_length=4000)]
    at: float
    client_id: Short | None = None


class Notice(msgspec.Struct, frozen=True, omit_defaults=True):
    """How far a room has gone: its document's version, its current game's and its chat's,
    and optionally what was stored last to get there.

    Encoded once where it is published and decoded once where a bus hands it over
    (`mailbox.py`), so a listener reads attributes, never string keys. Fields a sender leaves
    out take the values of a room with nothing yet (and carry nothing); a notice naming no
    room (a foreign publisher's) reaches no room's hub.

    `room_data` is the document at `room_version` as JSON, left for the room's own decoder;
    `actions` are the game's last rows, in order, the last at `game_version`; `lines` are the
    chat's last lines, in order, the last at `chat_seq`. They hold what happens to be at hand
    on the sender: the receiver uses the part right after what it holds, if it is there."""

    room: str | None = None
    room_version: int = 0
    game_id: str | None = None
    game_version: int = 0
    chat_seq: int = 0
    room_data: msgspec.Raw = NULL
    actions: Annotated[tuple[CarriedAction, ...], msgspec.Meta(max_length=MAX_ROWS)] = ()
    lines: Annotated[tuple[CarriedLine, ...], msgspec.Meta(max_length=MAX_ROWS)] = ()

    def bare(self) -> Notice:
        """The versions alone: the hint every notice was before it could carry changes."""
        return Notice(self.room, self.room_version, self.game_id, self.game_version, self.chat_seq)

    @property
    def carries(self) -> bool:
        return bool(self.actions or self.lines) or self.room_data != NULL


Listener = Callable[[Notice], Awaitable[None]]


@dataclass(slots=True)
class BusStats:
    """Running counts for /metrics; they only ever grow."""

    published: int = 0  # messages handed to the transport successfully
    received: int = 0  # messages delivered to the listener
    errors: int = 0  # failed or dropped publishes, unreadable messages, listener exceptions
    reconnects: int = 0  # times the subscriber lost its connection and started again


class Bus(Protocol):
    async def start(self, listener: Listener) -> None:
        """Begin delivering every notification (this node's own included) to `listener`:
        one room's in order, one at a time; different rooms' concurrently."""
        ...

    async def publish(self, notice: Notice) -> None: ...

    async def close(self) -> None: ...

    @property
    def stats(self) -> BusStats: ...

    @property
    def healthy(self) -> bool:
        """False while the bus is disconnected (nodes then poll the store)."""
        ...

    @property
    def shared(self) -> bool:
        """Whether other nodes hear what this one publishes. When none can, a node need not
        publish at all: its own notices would only come back to it, with nothing it has not
        already pushed (`RoomHub.on_notice` is a no-op for them)."""
        ...
