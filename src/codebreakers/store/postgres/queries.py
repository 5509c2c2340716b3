"""Every query of the PostgreSQL adapter, as PostgreSQL SQL on an asyncpg connection.

Each function is one unit of work; `store.py` runs a write inside a transaction, a read on its
own (each statement of a read sees the latest commits, as under READ COMMITTED in a
transaction), and the batch writes (`append_actions`, `update_rooms`: several games' or rooms'
writes in one statement, `commit.py`) as one statement on its own, which is its transaction.
asyncpg prepares each statement once per connection and keeps it (`statement_cache_size`), and
JSONB columns go through the msgspec codec `store.py` installs on every connection.

Appends are serialised by the database: an action row's primary key is (game_id, version). Two
nodes appending the same version can both pass the insert's conditions (READ COMMITTED runs them
side by side); the primary key or the client-action unique index then lets exactly one insert
commit, the other's row is skipped (`ON CONFLICT DO NOTHING`, after waiting for the rival's
transaction to end), and a second query says why it went in nowhere. Chat sequence numbers are
chosen here, so a conflict there must never surface: the room row is locked first, FOR NO KEY
UPDATE, which doesn't block foreign-key checks from new games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import msgspec

from codebreakers.store.base import (
    GAME_PLAYER_COLUMNS,
    JSON,
    ActionRow,
    AppendResult,
    ChatLine,
    GamePlayer,
    GameRow,
    RoomHead,
    RoomRow,
    game_player_values,
)

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def json_text(value: Any) -> str:
    """JSON as text, for a text[] array cast to jsonb in the statement."""
    return _encode(value).decode()


def _as_stored(value: Any) -> Any:
    """`value` as it reads back from a JSONB column (plain dicts and lists)."""
    return _decode(_encode(value))


# Rooms

ROOM_COLUMNS = "code, game, data, version, public, waiting, created_at, updated_at"


def room(r: asyncpg.Record) -> RoomRow:
    return RoomRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])


async def create_room(db: asyncpg.Connection, row: RoomRow) -> bool:
    """False when the code is taken (nothing written)."""
    status = await db.execute(
        f"INSERT INTO rooms ({ROOM_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        " ON CONFLICT (code) DO NOTHING",
        row.code,
        row.game,
        row.data,
        row.version,
        row.public,
        row.waiting,
        row.created_at,
        row.updated_at,
    )
    return bool(status == "INSERT 0 1")


async def load_room(db: asyncpg.Connection, code: str) -> RoomRow | None:
    found = await db.fetchrow(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE code = $1", code)
    return None if found is None else room(found)


# Room updates of a batch (one per room) in one statement; each row's version check is
# evaluated on the room's latest committed row (READ COMMITTED re-checks it after waiting on a
# rival's update), and RETURNING names the rooms updated.
_UPDATE_ROOMS = (
    "UPDATE rooms SET data = b.data::jsonb, version = rooms.version + 1, public = b.public,"
    " waiting = b.waiting, updated_at = b.updated_at"
    " FROM unnest($1::text[], $2::integer[], $3::text[], $4::boolean[], $5::boolean[],"
    " $6::double precision[]) AS b(code, expected, data, public, waiting, updated_at)"
    " WHERE rooms.code = b.code AND rooms.version = b.expected RETURNING rooms.code"
)


@dataclass(frozen=True, slots=True)
class RoomUpdate:
    code: str
    expected_version: int
    data: JSON
    public: bool
    waiting: bool
    now: float


async def update_rooms(
    db: asyncpg.Connection, batch: list[RoomUpdate], retried: bool
) -> list[bool | Exception]:
    """Each update of `batch` (one per room) when its room is at `expected_version`, bumping
    it, in one statement run on its own: whether each matched.

    `retried`: the store runs this batch again because its first run's connection was lost, so
    a room found at the next version holding exactly this update (data, flags, time) counts as
    updated (the first run stored it). Only then: two callers may well write the same
    document at one version, and only one of them may win. A caller that sends an update again
    after an exception gets False when its first attempt was stored, and reloads the room, as
    after any refusal."""
    done = {
        r[0]
        for r in await db.fetch(
            _UPDATE_ROOMS,
            [u.code for u in batch],
            [u.expected_version for u in batch],
            [json_text(u.data) for u in batch],
            [u.public for u in batch],
            [u.waiting for u in batch],
            [u.now for u in batch],
        )
    }
    results: list[bool | Exception] = []
    for u in batch:
        if u.code in done:
            results.append(True)
            continue
        if not retried:
            results.append(False)
            continue
        found = await db.fetchrow(
            "SELECT version, data, public, waiting, updated_at FROM rooms WHERE code = $1", u.code
        )
        results.append(
            found is not None
            and tuple(found)
            == (u.expected_version + 1, _as_stored(u.data), u.public, u.waiting, u.now)
        )
    return results


async def list_rooms(
    db: asyncpg.Connection, public: bool, waiting: bool, limit: int
) -> list[RoomRow]:
    """Most recently updated first."""
    rows = await db.fetch(
        f"SELECT {ROOM_COLUMNS} FROM rooms WHERE public = $1 AND waiting = $2"
        " ORDER BY updated_at DESC, code LIMIT $3",
        public,
        waiting,
        limit,
    )
    return [room(r) for r in rows]


async def room_head(db: asyncpg.Connection, room_code: str, game_id: str | None) -> RoomHead | None:
    found = await db.fetchrow(
        "SELECT version,"
        " (SELECT coalesce(max(version), 0) FROM actions WHERE game_id = $2::text),"
        " (SELECT coalesce(max(seq), 0) FROM chat WHERE room_code = $1)"
        " FROM rooms WHERE code = $1",
        room_code,
        game_id,
    )
    return None if found is None else RoomHead(found[0], found[1], found[2])


# Games and their action log

_ACTION_COLUMNS = "version, seat, client_action_id, action, at"


def _action(r: asyncpg.Record) -> ActionRow:
    return ActionRow(r[0], r[1], r[2], r[3], r[4])


async def create_game(
    db: asyncpg.Connection,
    game_id: str,
    room_code: str,
    game: str,
    setup: JSON,
    now: float,
    players: Sequence[GamePlayer] = (),
) -> None:
    """The game and its players, in the caller's transaction."""
    await db.execute(
        "INSERT INTO games (id, room_code, game, setup, created_at, over, outcome)"
        " VALUES ($1, $2, $3, $4, $5, false, NULL)",
        game_id,
        room_code,
        game,
        setup,
        now,
    )
    if players:
        await db.executemany(
            f"INSERT INTO game_players (game_id, {GAME_PLAYER_COLUMNS})"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [(game_id, *game_player_values(p)) for p in players],
        )


async def load_game(db: asyncpg.Connection, game_id: str) -> GameRow | None:
    found = await db.fetchrow(
        "SELECT id, room_code, game, setup, created_at, over, outcome FROM games WHERE id = $1",
        game_id,
    )
    if found is None:
        return None
    actions = await actions_since(db, game_id, 0)
    return GameRow(found[0], found[1], found[2], found[3], found[4], found[5], found[6], actions)


# Why an append inserted nothing: no row for an unknown game, else whether its client action is
# stored, and the row stored at its version.
_WHY_NOT_APPENDED = (
    "SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = $1 AND seat = $2"
    " AND client_action_id = $3::text), s.seat, s.client_action_id, s.action, s.at"
    " FROM games LEFT JOIN actions s ON s.game_id = games.id AND s.version = $4::integer"
    " WHERE games.id = $1"
)


# The append, one statement for a batch: each row of the arrays goes in only when its game exists,
# its game's last version is the one before and its client action is new (a NULL client action id
# equals nothing, so an action without one is never a duplicate); a row whose rival committed
# first (primary key, client id) is skipped, not an error, so the others still go in. RETURNING
# names the rows written. A batch holds one row per game.
_APPEND_BATCH = (
    f"INSERT INTO actions (game_id, {_ACTION_COLUMNS})"
    " SELECT b.game_id, b.version, b.seat, b.client_action_id, b.action::jsonb, b.at"
    " FROM unnest($1::text[], $2::integer[], $3::text[], $4::text[], $5::text[],"
    " $6::double precision[]) AS b(game_id, version, seat, client_action_id, action, at)"
    " WHERE EXISTS (SELECT 1 FROM games WHERE id = b.game_id)"
    " AND (SELECT coalesce(max(a.version), 0) FROM actions a WHERE a.game_id = b.game_id)"
    " = b.version - 1"
    " AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.game_id = b.game_id AND a.seat = b.seat"
    " AND a.client_action_id = b.client_action_id)"
    " ON CONFLICT DO NOTHING RETURNING game_id"
)


async def append_actions(
    db: asyncpg.Connection, batch: list[tuple[str, ActionRow]], retried: bool
) -> list[AppendResult | Exception]:
    """Append each (game id, row) of `batch` (one per game) when its game's last version is
    `row.version - 1`, in one statement run on its own (its own transaction): one result, or
    LookupError for an unknown game, per row. A retried client action is a DUPLICATE
    whatever version it now carries; when a row went in nowhere, a second query says why.

    A retry of a write whose answer was lost with its connection (a restarted database),
    whether the store runs it again itself or its caller sends it again, never doubles an
    action: with a client action id it is a DUPLICATE (the caller answers with the stored
    result, as for any retry); without one, a row found stored at its version exactly as given
    (seat, action, time) is reported APPENDED, since it is this very write, instead of a
    conflict that would make the caller apply it again at the next version. So `retried` (the
    store runs the batch again) changes nothing here.
    """
    written = {
        r[0]
        for r in await db.fetch(
            _APPEND_BATCH,
            [g for g, _ in batch],
            [r.version for _, r in batch],
            [r.seat for _, r in batch],
            [r.client_action_id for _, r in batch],
            [json_text(r.action) for _, r in batch],
            [r.at for _, r in batch],
        )
    }
    results: list[AppendResult | Exception] = []
    for game_id, row in batch:
        if game_id in written:
            results.append(AppendResult.APPENDED)
            continue
        found = await db.fetchrow(
            _WHY_NOT_APPENDED, game_id, row.seat, row.client_action_id, row.version
        )
        if found is None:
            results.append(LookupError(f"no game {game_id!r}"))
        elif found[0]:
            results.append(AppendResult.DUPLICATE)
        elif row.client_action_id is None and tuple(found)[1:] == (
            row.seat,
            None,
            _as_stored(row.action),
            row.at,
        ):
            results.append(AppendResult.APPENDED)  # stored by an earlier attempt
        else:
            results.append(AppendResult.VERSION_CONFLICT)
    return results


async def actions_since(db: asyncpg.Connection, game_id: str, version: int) -> list[ActionRow]:
    """Actions with a version above `version`, in order."""
    rows = await db.fetch(
        f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = $1 AND version > $2"
        " ORDER BY version",
        game_id,
        version,
    )
    return [_action(r) for r in rows]


async def find_action(
    db: asyncpg.Connection, game_id: str, seat: str, client_action_id: str
) -> ActionRow | None:
    found = await db.fetchrow(
        f"SELECT {_ACTION_COLUMNS} FROM actions"
        " WHERE game_id = $1 AND seat = $2 AND client_action_id = $3",
        game_id,
        seat,
        client_action_id,
    )
    return None if found is None else _action(found)


async def finish_game(db: asyncpg.Connection, game_id: str, outcome: JSON) -> str:
    """Mark the game over with its outcome and say which game it is (`decrypto`...);
    LookupError for an unknown game."""
    game: str | None = await db.fetchval(
        "UPDATE games SET over = true, outcome = $1 WHERE id = $2 RETURNING game", outcome, game_id
    )
    if game is None:
        raise LookupError(f"no game {game_id!r}")
    return game


async def live_games(db: asyncpg.Connection) -> list[str]:
    """Ids of games not over, oldest first."""
    rows = await db.fetch("SELECT id FROM games WHERE NOT over ORDER BY created_at, id")
    return [r[0] for r in rows]


# Chat

_CHAT_COLUMNS = "room_code, seq, game_id, channel, seat, name, text, at, client_id, profile_id"


def _line(r: Any) -> ChatLine:
    return ChatLine(r[1], r[0], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])


async def append_chat(
    db: asyncpg.Connection,
    room_code: str,
    game_id: str | None,
    channel: str,
    seat: str | None,
    name: str,
    text: str,
    at: float,
    client_id: str | None = None,
    profile_id: str | None = None,
) -> ChatLine:
    """The line with the room's next sequence number, or the line a retry of `client_id` stored
    already; LookupError for an unknown room."""
    locked = await db.fetchrow(
        "SELECT code FROM rooms WHERE code = $1 FOR NO KEY UPDATE", room_code
    )
    if locked is None:
        raise LookupError(f"no room {room_code!r}")
    if client_id is not None and seat is not None:
        retried = await find_chat(db, room_code, seat, client_id)
        if retried is not None:
            return retried
    seq = await db.fetchval(
        "SELECT coalesce(max(seq), 0) + 1 FROM chat WHERE room_code = $1", room_code
    )
    line = ChatLine(seq, room_code, game_id, channel, seat, name, text, at, client_id, profile_id)
    await db.execute(
        f"INSERT INTO chat ({_CHAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        room_code,
        seq,
        game_id,
        channel,
        seat,
        name,
        text,
        at,
        client_id,
        profile_id,
    )
    return line


async def find_chat(
    db: asyncpg.Connection, room_code: str, seat: str, client_id: str
) -> ChatLine | None:
    """The line `seat` sent with `client_id`, if stored."""
    found = await db.fetchrow(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE room_code = $1 AND seat = $2 AND client_id = $3",
        room_code,
        seat,
        client_id,
    )
    return None if found is None else _line(found)


async def chat_since(
    db: asyncpg.Connection, room_code: str, seq: int, limit: int
) -> list[ChatLine]:
    """Lines after `seq`, oldest first, at most `limit` of them."""
    rows = await db.fetch(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE room_code = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        room_code,
        seq,
        limit,
    )
    return [_line(r) for r in rows]


async def chat_of_game(db: asyncpg.Connection, game_id: str) -> list[ChatLine]:
    rows = await db.fetch(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE game_id = $1 ORDER BY seq", game_id
    )
    return [_line(r) for r in rows]
