"""'Room R changed' notifications between server nodes; data always comes from the store.

A notice is small (`{"room": code, "room_version": n, "game_id": id, "game_version": v,
"chat_seq": s}` on the wire, a `Notice` in code); delivery is at-most-once, so receivers treat
it as a hint to catch up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

import msgspec


class Notice(msgspec.Struct, frozen=True):
    """How far a room has gone: its document's version, its current game's and its chat's.

    Encoded once where it is published and decoded once where a bus hands it over
    (`mailbox.py`), so a listener reads attributes, never string keys. Fields a sender leaves
    out take the values of a room with nothing yet; a notice naming no room (a foreign
    publisher's) reaches no room's hub."""

    room: str | None = None
    room_version: int = 0
    game_id: str | None = None
    game_version: int = 0
    chat_seq: int = 0


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
