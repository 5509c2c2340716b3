"""What anyone may know about a room, listed field by field: its description and its listing.

The description is the `room` in a `room` frame and the body of `GET /api/rooms/{code}`; the
listing is a public room's line in `GET /api/rooms` (docs/protocol.md). Both are Structs whose
fields are listed here one by one, in the order the protocol shows them (msgspec writes a
Struct's fields in order), so a field added to the stored room reaches no one until it is
listed here, and never a token hash.
"""

from __future__ import annotations

import msgspec

from codebreakers.server.rooms.document import free_seats, seat_of
from codebreakers.server.rooms.model import JSON, PlayerKind, Room, RoomStatus


class PlayerEntry(msgspec.Struct):
    id: str
    name: str
    kind: PlayerKind
    level: str | None
    connected: bool  # any tab of this player holds a socket (bots always are)
    team: str | None
    index: int | None


class Description(msgspec.Struct):
    code: str
    game: str
    options: JSON
    public: bool
    status: RoomStatus
    host: str | None
    teams: dict[str, list[str | None]]
    team_sizes: dict[str, list[int]]
    players: list[PlayerEntry]
    game_id: str | None
    games_played: int
    rematch: list[str]
    version: int
    url: str


class Listing(msgspec.Struct):
    code: str
    game: str
    options: JSON
    players: int
    free_seats: int
    created_at: float
    rating: int | None = None  # the seated players' level, rounded (rooms/levels.py)


def public_options(options: JSON) -> JSON:
    """Options as anyone but the host sees them. A host's custom word list holds both teams'
    keywords (docs/rules-choices.md), so only its size leaves the server: the host pasted it,
    and no one else needs more than the size to know what kind of game it makes."""
    custom = options.get("custom_words")
    if custom is None:
        return options
    return {**options, "custom_words": None, "custom_word_count": len(custom)}


def describe(
    room: Room, code: str, connected: set[str], url: str, version: int, host: bool = False
) -> Description:
    """The description; with `host`, the host's own copy, which alone carries the options as
    set (its custom words) while no game runs: the host edits them then, and during a game the
    list would sit in the host's frames beside the enemy's keywords."""
    editable = room.status is not RoomStatus.PLAYING
    players = []
    for pid, info in room.players.items():
        seat = seat_of(room, pid)
        players.append(
            PlayerEntry(
                id=pid,
                name=info.name,
                kind=info.kind,
                level=info.level,
                connected=info.kind is PlayerKind.BOT or pid in connected,
                team=seat[0] if seat else None,
                index=seat[1] if seat else None,
            )
        )
    return Description(
        code=code,
        game=room.game,
        options=room.options if host and editable else public_options(room.options),
        public=room.public,
        status=room.status,
        host=room.host,
        teams={team: list(slots) for team, slots in room.seats.items()},
        team_sizes={team: list(size) for team, size in room.sizes.items()},
        players=players,
        game_id=room.game_id,
        games_played=room.games_played,
        rematch=list(room.rematch),
        version=version,
        url=url,
    )


def listing(room: Room, code: str, created_at: float, rating: int | None) -> Listing:
    """A public room's line in the open-tables list."""
    return Listing(
        code=code,
        game=room.game,
        options=public_options(room.options),
        players=len(room.players),
        free_seats=free_seats(room),
        created_at=created_at,
        rating=rating,
    )
