"""The room document as typed, immutable data: what the store holds for a room.

A room is one JSON document (the store's `RoomRow.data`) replaced whole under a version check.
It is decoded into a `Room` once where it enters the server (`load`, on every store read) and
encoded once where it leaves (`dump`, on every store write); in between, code reads attributes,
never string keys, and the pure operations of `document.py` build new rooms with
`msgspec.structs.replace` (Structs are frozen; their tuples can't change either, and their
dicts are never changed in place: an operation builds new ones).

Stored shape, schema 1 (the JSON rooms always held, plus its version):

    {"schema": 1, "game": "decrypto", "options": {...}, "public": bool,
     "status": "waiting" | "playing" | "over", "host": pid | null,
     "seats": {team: [pid | null, ...]},          # slots in table order, max size per team
     "sizes": {team: [min, max]},
     "players": {pid: {"name", "kind": "human" | "bot", "level", "token_hash", "ids": [...],
                       "profile_id": str | null}},  # the joiner's profile (issue 22)
     "next_player": int, "game_id": str | null, "games_played": int,
     "rematch": [pid, ...],                       # ready for another game, once one is over
     "base_url": str,                             # the site's address when the room was made
     "previous_game_id": str | null}              # the room's game before game_id

`schema` is the Struct's tag (msgspec's `tag_field`): written on every store, checked on every
read, so a room written in another schema is refused rather than misread. Migration 0004 wrote
it into the rows stored before it. A field added later takes a default (`rematch` came after
the first rooms were stored, a player's `profile_id` after migration 0005: players stored before
it decode as anonymous, None; `previous_game_id` after them all), so older rows decode as they
are; a change no default can express (a field renamed or reshaped) is a new schema: a second
tagged Struct decoded beside this one (`msgspec.convert(data, RoomV1 | Room)`), upgraded to the
newest in `load`, and a migration rewriting the stored rows.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

SCHEMA = 1

JSON = dict[str, Any]
Seats = dict[str, tuple[str | None, ...]]  # team -> its slots in table order (None: empty)
Sizes = dict[str, tuple[int, int]]  # team -> (fewest, most) players


class PlayerKind(StrEnum):
    """Stable stored and wire values."""

    HUMAN = "human"
    BOT = "bot"


class RoomStatus(StrEnum):
    """Stable stored and wire values."""

    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"


class Player(msgspec.Struct, frozen=True):
    """Anyone who joined the room, bots included; keyed by its public id (`"p3"`)."""

    name: str
    kind: PlayerKind
    level: str | None = None  # a bot's level
    token_hash: str | None = None  # a person's seat token, hashed (tokens.token_hash)
    ids: tuple[str, ...] = ()  # the last room operations applied for it, to spot retries
    # The profile of the browser that joined (its cookie, read at the join), None for a bot or
    # a browser without one. Never listed in a description: a seat token taken over by
    # someone else gives the seat, not this profile.
    profile_id: str | None = None

    @property
    def human(self) -> bool:
        return self.kind is PlayerKind.HUMAN


class Room(msgspec.Struct, frozen=True, tag_field="schema", tag=SCHEMA):
    game: str
    options: JSON  # the game's own, validated by it (GameRules.check_options)
    public: bool
    status: RoomStatus
    host: str | None
    seats: Seats
    sizes: Sizes
    players: dict[str, Player]
    next_player: int
    game_id: str | None
    games_played: int
    rematch: tuple[str, ...] = ()
    base_url: str = ""
    # The room's game before `game_id`: a retry of its last actions, whose ack a restart lost,
    # is recognised after the rematch (HeldRoom keeps its action ids). Absent in older rooms.
    previous_game_id: str | None = None


def load(data: object) -> Room:
    """The room a store row holds (`RoomRow.data`); msgspec.ValidationError for a document
    that isn't one (another schema, a missing or mistyped field)."""
    return msgspec.convert(data, Room)


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(JSON).decode


def dump(room: Room) -> JSON:
    """The JSON document to store for `room`: plain JSON values (lists where the Struct holds
    tuples), equal to what the store gives back when it is read."""
    return _decode(_encode(room))
