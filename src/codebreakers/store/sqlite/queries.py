"""Every query of the SQLite adapter, as SQL written for SQLite, run on a sqlite3 connection.

Each function is one unit of work inside a transaction its caller (`sqlite.py`) provides. The
tables are those of `schema.py`, as the migrations build them; values are stored as
SQLAlchemy's column types store them on SQLite, so files written by earlier versions read the
same: JSON as text (encoded by msgspec: 0.2 µs for an action where the standard library's
encoder took 2 µs; older rows hold `\\u` escapes where msgspec writes UTF-8, and decode the
same), booleans as 0/1, times as REAL. Statements are plain strings: sqlite3 keeps the prepared
statements of the last ones it ran (`cached_statements`), so nothing is compiled per call.

Appends are serialised by the database: the write transaction holds SQLite's one write lock
(BEGIN IMMEDIATE), and an action row's primary key is (game_id, version).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

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
    """A JSON column's text."""
    return _encode(value).decode()


def _json_or_null(value: Any) -> str | None:
    """A nullable JSON column: Python None is SQL NULL."""
    return None if value is None else json_text(value)


def loaded(text: str | None) -> Any:
    return None if text is None else _decode(text)


# Rooms

ROOM_COLUMNS = "code, game, data, version, public, waiting, created_at, updated_at"


def room(r: tuple[Any, ...]) -> RoomRow:
    return RoomRow(r[0], r[1], _decode(r[2]), r[3], bool(r[4]), bool(r[5]), r[6], r[7])


def create_room(db: sqlite3.Connection, row: RoomRow) -> bool:
    """False when the code is taken (nothing written)."""
    cursor = db.execute(
        f"INSERT INTO rooms ({ROOM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (code) DO NOTHING",
        (
            row.code,
            row.game,
            json_text(row.data),
            row.version,
            row.public,
            row.waiting,
            row.created_at,
            row.updated_at,
        ),
    )
    return cursor.rowcount == 1


def load_room(db: sqlite3.Connection, code: str) -> RoomRow | None:
    found = db.execute(f"SELECT {ROOM_COLUMNS} FROM rooms WHERE code = ?", (code,)).fetchone()
    return None if found is None else room(found)


def update_room(
    db: sqlite3.Connection,
    code: str,
    expected_version: int,
    data: JSON,
    public: bool,
    waiting: bool,
    now: float,
) -> bool:
    cursor = db.execute(
        "UPDATE rooms SET data = ?, version = version + 1, public = ?, waiting = ?,"
        " updated_at = ? WHERE code = ? AND version = ?",
        (json_text(data), public, waiting, now, code, expected_version),
    )
    return cursor.rowcount == 1


def list_rooms(db: sqlite3.Connection, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
    """Most recently updated first."""
    rows = db.execute(
        f"SELECT {ROOM_COLUMNS} FROM rooms WHERE public = ? AND waiting = ?"
        " ORDER BY updated_at DESC, code LIMIT ?",
        (public, waiting, limit),
    )
    return [room(r) for r in rows]


def room_head(db: sqlite3.Connection, room_code: str, game_id: str | None) -> RoomHead | None:
    found = db.execute(
        "SELECT version,"
        " (SELECT coalesce(max(version), 0) FROM actions WHERE game_id = ?),"
        " (SELECT coalesce(max(seq), 0) FROM chat WHERE room_code = ?)"
        " FROM rooms WHERE code = ?",
        (game_id, room_code, room_code),
    ).fetchone()
    return None if found is None else RoomHead(found[0], found[1], found[2])


# Games and their action log

_ACTION_COLUMNS = "version, seat, client_action_id, action, at"


def _action(r: tuple[Any, ...]) -> ActionRow:
    return ActionRow(r[0], r[1], r[2], _decode(r[3]), r[4])


def create_game(
    db: sqlite3.Connection,
    game_id: str,
    room_code: str,
    game: str,
    setup: JSON,
    now: float,
    players: Sequence[GamePlayer] = (),
) -> None:
    """The game and its players, in the caller's transaction."""
    db.execute(
        "INSERT INTO games (id, room_code, game, setup, created_at, over, outcome)"
        " VALUES (?, ?, ?, ?, ?, 0, NULL)",
        (game_id, room_code, game, json_text(setup), now),
    )
    db.executemany(
        f"INSERT INTO game_players (game_id, {GAME_PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, *game_player_values(p)) for p in players],
    )


def load_game(db: sqlite3.Connection, game_id: str) -> GameRow | None:
    found = db.execute(
        "SELECT id, room_code, game, setup, created_at, over, outcome FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if found is None:
        return None
    return GameRow(
        found[0],
        found[1],
        found[2],
        _decode(found[3]),
        found[4],
        bool(found[5]),
        loaded(found[6]),
        actions_since(db, game_id, 0),
    )


# The append in one statement: the row goes in only when the game exists, its last version is
# the one before and the client action is new. A NULL client action id equals nothing, so an
# action without one is never a duplicate.
_APPEND_IF_NEXT = (
    f"INSERT INTO actions (game_id, {_ACTION_COLUMNS})"
    " SELECT :game_id, :version, :seat, :client_action_id, :action, :at"
    " WHERE EXISTS (SELECT 1 FROM games WHERE id = :game_id)"
    " AND (SELECT coalesce(max(version), 0) FROM actions WHERE game_id = :game_id) = :last"
    " AND NOT EXISTS (SELECT 1 FROM actions WHERE game_id = :game_id AND seat = :seat"
    " AND client_action_id = :client_action_id)"
)
# Why an append inserted nothing: no row for an unknown game, else whether it was a retry.
_WHY_NOT_APPENDED = (
    "SELECT EXISTS (SELECT 1 FROM actions WHERE game_id = ? AND seat = ?"
    " AND client_action_id = ?) FROM games WHERE id = ?"
)


def append_action(db: sqlite3.Connection, game_id: str, row: ActionRow) -> AppendResult:
    """Append when the last version is `row.version - 1`; LookupError for an unknown game.

    A retried client action is a DUPLICATE whatever version it now carries. The checks and the
    insert are one statement (the write lock is held, so nobody appends in between); when
    nothing was inserted, a second query says why.
    """
    appended = db.execute(
        _APPEND_IF_NEXT,
        {
            "game_id": game_id,
            "version": row.version,
            "seat": row.seat,
            "client_action_id": row.client_action_id,
            "action": json_text(row.action),
            "at": row.at,
            "last": row.version - 1,
        },
    )
    if appended.rowcount == 1:
        return AppendResult.APPENDED
    found = db.execute(
        _WHY_NOT_APPENDED, (game_id, row.seat, row.client_action_id, game_id)
    ).fetchone()
    if found is None:
        raise LookupError(f"no game {game_id!r}")
    return AppendResult.DUPLICATE if found[0] else AppendResult.VERSION_CONFLICT


def actions_since(db: sqlite3.Connection, game_id: str, version: int) -> list[ActionRow]:
    """Actions with a version above `version`, in order."""
    rows = db.execute(
        f"SELECT {_ACTION_COLUMNS} FROM actions WHERE game_id = ? AND version > ? ORDER BY version",
        (game_id, version),
    )
    return [_action(r) for r in rows]


def find_action(
    db: sqlite3.Connection, game_id: str, seat: str, client_action_id: str
) -> ActionRow | None:
    found = db.execute(
        f"SELECT {_ACTION_COLUMNS} FROM actions"
        " WHERE game_id = ? AND seat = ? AND client_action_id = ?",
        (game_id, seat, client_action_id),
    ).fetchone()
    return None if found is None else _action(found)


def finish_game(db: sqlite3.Connection, game_id: str, outcome: JSON) -> str:
    """Mark the game over with its outcome and say which game it is (`decrypto`...);
    LookupError for an unknown game."""
    found = db.execute(
        "UPDATE games SET over = 1, outcome = ? WHERE id = ? RETURNING game",
        (_json_or_null(outcome), game_id),
    ).fetchone()
    if found is None:
        raise LookupError(f"no game {game_id!r}")
    game: str = found[0]
    return game


def live_games(db: sqlite3.Connection) -> list[str]:
    """Ids of games not over, oldest first."""
    rows = db.execute("SELECT id FROM games WHERE over = 0 ORDER BY created_at, id")
    return [r[0] for r in rows]


# Chat

_CHAT_COLUMNS = "room_code, seq, game_id, channel, seat, name, text, at, client_id, profile_id"


def _line(r: tuple[Any, ...]) -> ChatLine:
    return ChatLine(r[1], r[0], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9])


def append_chat(
    db: sqlite3.Connection,
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
    already; LookupError for an unknown room. The write transaction holds the database's one
    write lock, so nobody takes the same number meanwhile."""
    if db.execute("SELECT 1 FROM rooms WHERE code = ?", (room_code,)).fetchone() is None:
        raise LookupError(f"no room {room_code!r}")
    if client_id is not None and seat is not None:
        retried = find_chat(db, room_code, seat, client_id)
        if retried is not None:
            return retried
    (seq,) = db.execute(
        "SELECT coalesce(max(seq), 0) + 1 FROM chat WHERE room_code = ?", (room_code,)
    ).fetchone()
    line = ChatLine(seq, room_code, game_id, channel, seat, name, text, at, client_id, profile_id)
    db.execute(
        f"INSERT INTO chat ({_CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (room_code, seq, game_id, channel, seat, name, text, at, client_id, profile_id),
    )
    return line


def find_chat(db: sqlite3.Connection, room_code: str, seat: str, client_id: str) -> ChatLine | None:
    """The line `seat` sent with `client_id`, if stored."""
    found = db.execute(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE room_code = ? AND seat = ? AND client_id = ?",
        (room_code, seat, client_id),
    ).fetchone()
    return None if found is None else _line(found)


def chat_since(db: sqlite3.Connection, room_code: str, seq: int, limit: int) -> list[ChatLine]:
    """Lines after `seq`, oldest first, at most `limit` of them."""
    rows = db.execute(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE room_code = ? AND seq > ? ORDER BY seq LIMIT ?",
        (room_code, seq, limit),
    )
    return [_line(r) for r in rows]


def chat_of_game(db: sqlite3.Connection, game_id: str) -> list[ChatLine]:
    rows = db.execute(
        f"SELECT {_CHAT_COLUMNS} FROM chat WHERE game_id = ? ORDER BY seq", (game_id,)
    )
    return [_line(r) for r in rows]
