"""Every query the store runs, written once as plain functions over a `Db` (a connection).

Each function is one unit of work run inside a transaction that its runner provides: on SQLite
in a worker thread, straight on the stdlib driver with each statement compiled once
(`direct.py`); on PostgreSQL through SQLAlchemy and asyncpg (`run_sync`). So the SQL is shared and
only the way it is executed differs (see `sqlite.py` and `postgres.py`).

Appends are serialised by the database: an action row's primary key is (game_id, version), so of
two nodes appending the same version one insert fails; `SqlStore` turns that failure into
VERSION_CONFLICT or DUPLICATE with `explain_append_conflict`. Chat sequence numbers are chosen
here, so a conflict there must never surface: the room row is locked first (FOR NO KEY UPDATE on
PostgreSQL, which doesn't block foreign-key checks; on SQLite the write transaction already holds
the database's one write lock).

Statements are built once, at import, with bound parameters: building a statement costs more CPU
than running it (measured: an append took 2.6 ms of CPU with statements built per call, 0.7 ms
with these), and the SQLite path compiles each statement object once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from sqlalchemy import Executable, bindparam, exists, func, insert, select, update

from codebreakers.store.base import (
    JSON,
    ActionRow,
    AppendResult,
    ChatLine,
    GameRow,
    RoomHead,
    RoomRow,
)
from codebreakers.store.schema import actions, chat, games, rooms


class Result(Protocol):
    """What the queries use of a result; its rows are used through attributes, indexes and
    `_asdict()`."""

    rowcount: int

    def __iter__(self) -> Iterator[Any]: ...

    def first(self) -> Any: ...

    def scalar_one(self) -> Any: ...


class Db(Protocol):
    """What the queries use of a connection; SQLAlchemy's Connection is one, `DirectDb` another."""

    def execute(self, statement: Executable, parameters: dict[str, Any], /) -> Result: ...


def _values(row: Any) -> dict[str, Any]:
    """A row's fields by name; `asdict` would deep-copy the JSON in them (20 µs for an action,
    as much as running the insert)."""
    return {name: getattr(row, name) for name in row.__slots__}


# An ActionRow doesn't repeat its game id.
_ACTION_COLUMNS = [c for c in actions.c if c.name != "game_id"]


def _param(name: str) -> Any:
    """A bound parameter; named `p_*` so it never clashes with a column in an UPDATE."""
    return bindparam(f"p_{name}")


# Rooms

_CREATE_ROOM = insert(rooms)
_LOAD_ROOM = select(rooms).where(rooms.c.code == _param("code"))
_UPDATE_ROOM = (
    update(rooms)
    .where(rooms.c.code == _param("code"), rooms.c.version == _param("expected"))
    .values(
        data=_param("data"),
        version=rooms.c.version + 1,
        public=_param("public"),
        waiting=_param("waiting"),
        updated_at=_param("now"),
    )
)
_LIST_ROOMS = (
    select(rooms)
    .where(rooms.c.public == _param("public"), rooms.c.waiting == _param("waiting"))
    .order_by(rooms.c.updated_at.desc(), rooms.c.code)
    .limit(_param("limit"))
)


def create_room(conn: Db, row: RoomRow) -> None:
    """IntegrityError when the code is taken."""
    conn.execute(_CREATE_ROOM, _values(row))


def load_room(conn: Db, code: str) -> RoomRow | None:
    found = conn.execute(_LOAD_ROOM, {"p_code": code}).first()
    return None if found is None else RoomRow(**found._asdict())


def update_room(
    conn: Db,
    code: str,
    expected_version: int,
    data: JSON,
    public: bool,
    waiting: bool,
    now: float,
) -> bool:
    params = {
        "p_code": code,
        "p_expected": expected_version,
        "p_data": data,
        "p_public": public,
        "p_waiting": waiting,
        "p_now": now,
    }
    return conn.execute(_UPDATE_ROOM, params).rowcount == 1


def list_rooms(conn: Db, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
    """Most recently updated first."""
    params = {"p_public": public, "p_waiting": waiting, "p_limit": limit}
    return [RoomRow(**r._asdict()) for r in conn.execute(_LIST_ROOMS, params)]


# Games and their action log

_CREATE_GAME = insert(games)
_LOAD_GAME = select(games).where(games.c.id == _param("game_id"))
# This seat's action with this client id, in this game. A NULL client action id equals nothing,
# so an action without one is never a duplicate.
_SAME_CLIENT_ACTION = (
    actions.c.game_id == _param("game_id"),
    actions.c.seat == _param("seat"),
    actions.c.client_action_id == _param("client_action_id"),
)
# The append in one statement: the row goes in only when the game exists, its last version is
# the one before and the client action is new.
_APPEND_IF_NEXT = insert(actions).from_select(
    [c.name for c in actions.c],
    select(*(bindparam(c.name, type_=c.type) for c in actions.c)).where(
        exists().where(games.c.id == _param("game_id")),
        select(func.coalesce(func.max(actions.c.version), 0))
        .where(actions.c.game_id == _param("game_id"))
        .scalar_subquery()
        == _param("last"),
        ~exists().where(*_SAME_CLIENT_ACTION),
    ),
)
# Why an append inserted nothing: no row for an unknown game, else whether it was a retry.
_WHY_NOT_APPENDED = select(exists().where(*_SAME_CLIENT_ACTION).label("duplicate")).where(
    games.c.id == _param("game_id")
)
_ACTIONS_SINCE = (
    select(*_ACTION_COLUMNS)
    .where(actions.c.game_id == _param("game_id"), actions.c.version > _param("version"))
    .order_by(actions.c.version)
)
_FIND_ACTION = select(*_ACTION_COLUMNS).where(*_SAME_CLIENT_ACTION)
_FINISH_GAME = (
    update(games)
    .where(games.c.id == _param("game_id"))
    .values(over=True, outcome=_param("outcome"))
)
_LIVE_GAMES = (
    select(games.c.id)
    .where(games.c.over == False)  # noqa: E712 (SQL comparison, not Python)
    .order_by(games.c.created_at, games.c.id)
)


def create_game(conn: Db, game_id: str, room_code: str, game: str, setup: JSON, now: float) -> None:
    conn.execute(
        _CREATE_GAME,
        {
            "id": game_id,
            "room_code": room_code,
            "game": game,
            "setup": setup,
            "created_at": now,
            "over": False,
            "outcome": None,
        },
    )


def load_game(conn: Db, game_id: str) -> GameRow | None:
    found = conn.execute(_LOAD_GAME, {"p_game_id": game_id}).first()
    if found is None:
        return None
    return GameRow(**found._asdict(), actions=actions_since(conn, game_id, 0))


def append_action(conn: Db, game_id: str, row: ActionRow) -> AppendResult:
    """Append when the last version is `row.version - 1`; LookupError for an unknown game.

    A retried client action is a DUPLICATE whatever version it now carries. The checks and the
    insert are one statement; on PostgreSQL a rival committing meanwhile makes the insert raise
    IntegrityError (the primary key or the client id), and the caller asks
    `explain_append_conflict`. When nothing was inserted, a second query says why.
    """
    params = {"p_game_id": game_id, "p_seat": row.seat, "p_client_action_id": row.client_action_id}
    appended = conn.execute(
        _APPEND_IF_NEXT, {**params, "p_last": row.version - 1, "game_id": game_id, **_values(row)}
    )
    if appended.rowcount == 1:
        return AppendResult.APPENDED
    found = conn.execute(_WHY_NOT_APPENDED, params).first()
    if found is None:
        raise LookupError(f"no game {game_id!r}")
    if found.duplicate:
        return AppendResult.DUPLICATE
    return AppendResult.VERSION_CONFLICT


def explain_append_conflict(conn: Db, game_id: str, row: ActionRow) -> AppendResult:
    """After an append lost a race: DUPLICATE if the rival stored this very client action."""
    if row.client_action_id is not None and find_action(
        conn, game_id, row.seat, row.client_action_id
    ):
        return AppendResult.DUPLICATE
    return AppendResult.VERSION_CONFLICT


def actions_since(conn: Db, game_id: str, version: int) -> list[ActionRow]:
    """Actions with a version above `version`, in order."""
    params = {"p_game_id": game_id, "p_version": version}
    return [_action(a) for a in conn.execute(_ACTIONS_SINCE, params)]


def find_action(conn: Db, game_id: str, seat: str, client_action_id: str) -> ActionRow | None:
    params = {"p_game_id": game_id, "p_seat": seat, "p_client_action_id": client_action_id}
    found = conn.execute(_FIND_ACTION, params).first()
    return None if found is None else _action(found)


def finish_game(conn: Db, game_id: str, outcome: JSON) -> None:
    """Mark the game over with its outcome; LookupError for an unknown game."""
    result = conn.execute(_FINISH_GAME, {"p_game_id": game_id, "p_outcome": outcome})
    if result.rowcount != 1:
        raise LookupError(f"no game {game_id!r}")


def live_games(conn: Db) -> list[str]:
    """Ids of games not over, oldest first."""
    return [row.id for row in conn.execute(_LIVE_GAMES, {})]


def _action(a: Any) -> ActionRow:
    return ActionRow(**a._asdict())


# Chat

_LOCK_ROOM = (
    select(rooms.c.code).where(rooms.c.code == _param("room_code")).with_for_update(key_share=True)
)
_NEXT_SEQ = select(func.coalesce(func.max(chat.c.seq), 0) + 1).where(
    chat.c.room_code == _param("room_code")
)
_INSERT_CHAT = insert(chat)
_CHAT_SINCE = (
    select(chat)
    .where(chat.c.room_code == _param("room_code"), chat.c.seq > _param("seq"))
    .order_by(chat.c.seq)
    .limit(_param("limit"))
)
_CHAT_RETRIED = select(chat).where(
    chat.c.room_code == _param("room_code"),
    chat.c.seat == _param("seat"),
    chat.c.client_id == _param("client_id"),
)
_CHAT_OF_GAME = select(chat).where(chat.c.game_id == _param("game_id")).order_by(chat.c.seq)


def append_chat(
    conn: Db,
    room_code: str,
    game_id: str | None,
    channel: str,
    seat: str | None,
    name: str,
    text: str,
    at: float,
    client_id: str | None = None,
) -> ChatLine:
    """The line with the room's next sequence number, or the line a retry of `client_id` stored
    already; LookupError for an unknown room."""
    room = {"p_room_code": room_code}
    if conn.execute(_LOCK_ROOM, room).first() is None:
        raise LookupError(f"no room {room_code!r}")
    retried = (
        None if client_id is None or seat is None else find_chat(conn, room_code, seat, client_id)
    )
    if retried is not None:
        return retried
    line = ChatLine(
        seq=conn.execute(_NEXT_SEQ, room).scalar_one(),
        room_code=room_code,
        game_id=game_id,
        channel=channel,
        seat=seat,
        name=name,
        text=text,
        at=at,
        client_id=client_id,
    )
    conn.execute(_INSERT_CHAT, _values(line))
    return line


def find_chat(conn: Db, room_code: str, seat: str, client_id: str) -> ChatLine | None:
    """The line `seat` sent with `client_id`, if stored."""
    params = {"p_room_code": room_code, "p_seat": seat, "p_client_id": client_id}
    stored = conn.execute(_CHAT_RETRIED, params).first()
    return None if stored is None else ChatLine(**stored._asdict())


def chat_since(conn: Db, room_code: str, seq: int, limit: int) -> list[ChatLine]:
    """Lines after `seq`, oldest first, at most `limit` of them."""
    params = {"p_room_code": room_code, "p_seq": seq, "p_limit": limit}
    return [ChatLine(**c._asdict()) for c in conn.execute(_CHAT_SINCE, params)]


def chat_of_game(conn: Db, game_id: str) -> list[ChatLine]:
    return [ChatLine(**c._asdict()) for c in conn.execute(_CHAT_OF_GAME, {"p_game_id": game_id})]


# Heads: a room's versions in one read, for the catch-up sweep (server/catchup.py)

_ROOM_HEAD = select(
    rooms.c.version,
    select(func.coalesce(func.max(actions.c.version), 0))
    .where(actions.c.game_id == _param("game_id"))
    .scalar_subquery()
    .label("game_version"),
    select(func.coalesce(func.max(chat.c.seq), 0))
    .where(chat.c.room_code == _param("room_code"))
    .scalar_subquery()
    .label("chat_seq"),
).where(rooms.c.code == _param("room_code"))


def room_head(conn: Db, room_code: str, game_id: str | None) -> RoomHead | None:
    found = conn.execute(_ROOM_HEAD, {"p_room_code": room_code, "p_game_id": game_id}).first()
    return None if found is None else RoomHead(found[0], found[1], found[2])
