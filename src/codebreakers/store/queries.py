"""Every query the store runs, written once as plain functions over a SQLAlchemy Connection.

Each function is one unit of work run inside a transaction that its runner provides: on SQLite
in a worker thread over the stdlib driver, on PostgreSQL through asyncpg (`run_sync`). So the SQL
is shared and only the way it is executed differs (see `sqlite.py` and `postgres.py`).

Appends are serialised by the database: an action row's primary key is (game_id, version), so of
two nodes appending the same version one insert fails; `SqlStore` turns that failure into
VERSION_CONFLICT or DUPLICATE with `explain_append_conflict`. Chat sequence numbers are chosen
here, so a conflict there must never surface: the room row is locked first (FOR NO KEY UPDATE on
PostgreSQL, which doesn't block foreign-key checks; on SQLite the write transaction already holds
the database's one write lock).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy import Connection, Row, Select, exists, false, func, insert, select, update

from codebreakers.store.base import JSON, ActionRow, AppendResult, ChatLine, GameRow, RoomRow
from codebreakers.store.schema import actions, chat, games, rooms

# An ActionRow doesn't repeat its game id.
_ACTION_COLUMNS = [c for c in actions.c if c.name != "game_id"]


# Rooms


def create_room(conn: Connection, row: RoomRow) -> None:
    """IntegrityError when the code is taken."""
    conn.execute(insert(rooms).values(**asdict(row)))


def load_room(conn: Connection, code: str) -> RoomRow | None:
    found = conn.execute(select(rooms).where(rooms.c.code == code)).first()
    return None if found is None else RoomRow(**found._asdict())


def update_room(
    conn: Connection,
    code: str,
    expected_version: int,
    data: JSON,
    public: bool,
    waiting: bool,
    now: float,
) -> bool:
    result = conn.execute(
        update(rooms)
        .where(rooms.c.code == code, rooms.c.version == expected_version)
        .values(
            data=data, version=rooms.c.version + 1, public=public, waiting=waiting, updated_at=now
        )
    )
    return result.rowcount == 1


def list_rooms(conn: Connection, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
    """Most recently updated first."""
    query = (
        select(rooms)
        .where(rooms.c.public == public, rooms.c.waiting == waiting)
        .order_by(rooms.c.updated_at.desc(), rooms.c.code)
        .limit(limit)
    )
    return [RoomRow(**r._asdict()) for r in conn.execute(query)]


# Games and their action log


def create_game(
    conn: Connection, game_id: str, room_code: str, game: str, setup: JSON, now: float
) -> None:
    conn.execute(
        insert(games).values(
            id=game_id,
            room_code=room_code,
            game=game,
            setup=setup,
            created_at=now,
            over=False,
            outcome=None,
        )
    )


def load_game(conn: Connection, game_id: str) -> GameRow | None:
    found = conn.execute(select(games).where(games.c.id == game_id)).first()
    if found is None:
        return None
    return GameRow(**found._asdict(), actions=actions_since(conn, game_id, 0))


def append_action(conn: Connection, game_id: str, row: ActionRow) -> AppendResult:
    """Append when the last version is `row.version - 1`; LookupError for an unknown game.

    A retried client action is a DUPLICATE whatever version it now carries. The last version and
    the client id are read in one statement (one snapshot); when a rival commits after it, the
    insert raises IntegrityError and the caller asks `explain_append_conflict`.
    """
    found = conn.execute(_append_check(game_id, row)).first()
    if found is None:
        raise LookupError(f"no game {game_id!r}")
    if found.duplicate:
        return AppendResult.DUPLICATE
    if found.last != row.version - 1:
        return AppendResult.VERSION_CONFLICT
    conn.execute(insert(actions).values(game_id=game_id, **asdict(row)))
    return AppendResult.APPENDED


def explain_append_conflict(conn: Connection, game_id: str, row: ActionRow) -> AppendResult:
    """After an append lost a race: DUPLICATE if the rival stored this very client action."""
    if row.client_action_id is not None and find_action(
        conn, game_id, row.seat, row.client_action_id
    ):
        return AppendResult.DUPLICATE
    return AppendResult.VERSION_CONFLICT


def _append_check(game_id: str, row: ActionRow) -> Select[Any]:
    """One row (last version, whether this client action is stored), none for an unknown game."""
    last = select(func.coalesce(func.max(actions.c.version), 0)).where(actions.c.game_id == game_id)
    duplicate = (
        false()
        if row.client_action_id is None
        else exists().where(
            actions.c.game_id == game_id,
            actions.c.seat == row.seat,
            actions.c.client_action_id == row.client_action_id,
        )
    )
    return select(last.scalar_subquery().label("last"), duplicate.label("duplicate")).where(
        games.c.id == game_id
    )


def actions_since(conn: Connection, game_id: str, version: int) -> list[ActionRow]:
    """Actions with a version above `version`, in order."""
    query = (
        select(*_ACTION_COLUMNS)
        .where(actions.c.game_id == game_id, actions.c.version > version)
        .order_by(actions.c.version)
    )
    return [_action(a) for a in conn.execute(query)]


def find_action(
    conn: Connection, game_id: str, seat: str, client_action_id: str
) -> ActionRow | None:
    found = conn.execute(
        select(*_ACTION_COLUMNS).where(
            actions.c.game_id == game_id,
            actions.c.seat == seat,
            actions.c.client_action_id == client_action_id,
        )
    ).first()
    return None if found is None else _action(found)


def finish_game(conn: Connection, game_id: str, outcome: JSON) -> None:
    """Mark the game over with its outcome; LookupError for an unknown game."""
    result = conn.execute(
        update(games).where(games.c.id == game_id).values(over=True, outcome=outcome)
    )
    if result.rowcount != 1:
        raise LookupError(f"no game {game_id!r}")


def live_games(conn: Connection) -> list[str]:
    """Ids of games not over, oldest first."""
    query = (
        select(games.c.id)
        .where(games.c.over == False)  # noqa: E712 (SQL comparison, not Python)
        .order_by(games.c.created_at, games.c.id)
    )
    return list(conn.scalars(query).all())


def _action(a: Row[Any]) -> ActionRow:
    return ActionRow(**a._asdict())


# Chat


def append_chat(
    conn: Connection,
    room_code: str,
    game_id: str | None,
    channel: str,
    seat: str | None,
    name: str,
    text: str,
    at: float,
) -> ChatLine:
    """The line with the room's next sequence number; LookupError for an unknown room."""
    locked = conn.scalar(
        select(rooms.c.code).where(rooms.c.code == room_code).with_for_update(key_share=True)
    )
    if locked is None:
        raise LookupError(f"no room {room_code!r}")
    next_seq = select(func.coalesce(func.max(chat.c.seq), 0) + 1).where(
        chat.c.room_code == room_code
    )
    line = ChatLine(
        seq=conn.execute(next_seq).scalar_one(),
        room_code=room_code,
        game_id=game_id,
        channel=channel,
        seat=seat,
        name=name,
        text=text,
        at=at,
    )
    conn.execute(insert(chat).values(**asdict(line)))
    return line


def chat_since(conn: Connection, room_code: str, seq: int, limit: int) -> list[ChatLine]:
    """Lines after `seq`, oldest first, at most `limit` of them."""
    query = (
        select(chat)
        .where(chat.c.room_code == room_code, chat.c.seq > seq)
        .order_by(chat.c.seq)
        .limit(limit)
    )
    return [ChatLine(**c._asdict()) for c in conn.execute(query)]


def chat_of_game(conn: Connection, game_id: str) -> list[ChatLine]:
    query = select(chat).where(chat.c.game_id == game_id).order_by(chat.c.seq)
    return [ChatLine(**c._asdict()) for c in conn.execute(query)]
