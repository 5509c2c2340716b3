"""The Store, written once in SQLAlchemy Core for SQLite and PostgreSQL.

Appends are serialised by the database, not by this process: an action row's primary key is
(game_id, version), so of two nodes appending the same version one insert fails, and the loser is
told VERSION_CONFLICT (or DUPLICATE when its client action id is already stored). On SQLite this
process's writers also queue on an asyncio lock, for latency only; correctness never rests on it.

Chat sequence numbers are chosen by the store, so there a conflict must never surface: the room
row is locked (FOR NO KEY UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises
writers) before the next number is read.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import asdict
from typing import Any

from sqlalchemy import Row, Select, exists, false, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from codebreakers.store import dialects, migrate
from codebreakers.store.base import JSON, ActionRow, AppendResult, ChatLine, GameRow, RoomRow
from codebreakers.store.schema import actions, chat, games, rooms

# An ActionRow doesn't repeat its game id.
_ACTION_COLUMNS = [c for c in actions.c if c.name != "game_id"]


class SqlStore:
    """A Store over any SQLAlchemy async URL that `dialects.async_url` accepts."""

    def __init__(self, url: str) -> None:
        self._url = dialects.async_url(url)
        self._engine: AsyncEngine | None = None
        self._write_lock: AbstractAsyncContextManager[object] = (
            asyncio.Lock() if dialects.single_writer(self._url) else nullcontext()
        )

    @property
    def url(self) -> str:
        """The database URL with any password masked, for logs and the health page."""
        return self._url.render_as_string(hide_password=True)

    async def open(self) -> None:
        """Connect and migrate; a failure (database unreachable, bad schema) leaves it closed."""
        if self._engine is not None:
            raise RuntimeError("the store is already open")
        migrator = dialects.create_engine(self._url, migrating=True)
        try:
            async with dialects.for_writing(migrator).begin() as conn:
                await conn.run_sync(migrate.upgrade)
        finally:
            await migrator.dispose()
        self._engine = dialects.create_engine(self._url)

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    @property
    def _reader(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction; on SQLite, this process's writers queue here first.

        SQLite admits one writer at a time. Waiting on an asyncio lock costs nothing, whereas
        waiting inside SQLite's busy handler sleeps for whole milliseconds per retry.
        """
        async with self._write_lock, dialects.for_writing(self._reader).begin() as conn:
            yield conn

    # Rooms

    async def create_room(self, row: RoomRow) -> bool:
        try:
            async with self._write() as conn:
                await conn.execute(insert(rooms).values(**asdict(row)))
        except IntegrityError:
            return False
        return True

    async def load_room(self, code: str) -> RoomRow | None:
        async with self._reader.connect() as conn:
            found = (await conn.execute(select(rooms).where(rooms.c.code == code))).first()
        return None if found is None else _room(found)

    async def update_room(
        self,
        code: str,
        expected_version: int,
        data: JSON,
        *,
        public: bool,
        waiting: bool,
        now: float,
    ) -> bool:
        async with self._write() as conn:
            result = await conn.execute(
                update(rooms)
                .where(rooms.c.code == code, rooms.c.version == expected_version)
                .values(
                    data=data,
                    version=rooms.c.version + 1,
                    public=public,
                    waiting=waiting,
                    updated_at=now,
                )
            )
        return result.rowcount == 1

    async def list_rooms(self, *, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
        """Most recently updated first."""
        query = (
            select(rooms)
            .where(rooms.c.public == public, rooms.c.waiting == waiting)
            .order_by(rooms.c.updated_at.desc(), rooms.c.code)
            .limit(limit)
        )
        async with self._reader.connect() as conn:
            return [_room(r) for r in await conn.execute(query)]

    # Games and their action log

    async def create_game(
        self, game_id: str, room_code: str, game: str, setup: JSON, now: float
    ) -> None:
        async with self._write() as conn:
            await conn.execute(
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

    async def load_game(self, game_id: str) -> GameRow | None:
        async with self._reader.connect() as conn:
            found = (await conn.execute(select(games).where(games.c.id == game_id))).first()
            if found is None:
                return None
            log = await conn.execute(
                select(*_ACTION_COLUMNS)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.version)
            )
            return GameRow(
                id=found.id,
                room_code=found.room_code,
                game=found.game,
                setup=found.setup,
                created_at=found.created_at,
                over=found.over,
                outcome=found.outcome,
                actions=[_action(a) for a in log],
            )

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        """Append when the last version is `row.version - 1`; LookupError for an unknown game.

        A retried client action is a DUPLICATE whatever version it now carries. The last version
        and the client id are read in one statement (one snapshot); when a rival commits after
        it, our insert hits the primary key or the unique client id and we look again.
        """
        try:
            async with self._write() as conn:
                found = (await conn.execute(_append_check(game_id, row))).first()
                if found is None:
                    raise LookupError(f"no game {game_id!r}")
                if found.duplicate:
                    return AppendResult.DUPLICATE
                if found.last != row.version - 1:
                    return AppendResult.VERSION_CONFLICT
                await conn.execute(insert(actions).values(game_id=game_id, **asdict(row)))
        except IntegrityError:
            # A rival committed between our check and our insert (PostgreSQL runs these
            # transactions concurrently): the primary key or the client id stopped us.
            async with self._reader.connect() as conn:
                if await _find_action(conn, game_id, row.seat, row.client_action_id):
                    return AppendResult.DUPLICATE
            return AppendResult.VERSION_CONFLICT
        return AppendResult.APPENDED

    async def actions_since(self, game_id: str, version: int) -> list[ActionRow]:
        """Actions with a version above `version`, in order."""
        query = (
            select(*_ACTION_COLUMNS)
            .where(actions.c.game_id == game_id, actions.c.version > version)
            .order_by(actions.c.version)
        )
        async with self._reader.connect() as conn:
            return [_action(a) for a in await conn.execute(query)]

    async def find_action(self, game_id: str, seat: str, client_action_id: str) -> ActionRow | None:
        async with self._reader.connect() as conn:
            return await _find_action(conn, game_id, seat, client_action_id)

    async def finish_game(self, game_id: str, outcome: JSON) -> None:
        """Mark the game over with its outcome; LookupError for an unknown game."""
        async with self._write() as conn:
            result = await conn.execute(
                update(games).where(games.c.id == game_id).values(over=True, outcome=outcome)
            )
        if result.rowcount != 1:
            raise LookupError(f"no game {game_id!r}")

    async def live_games(self) -> list[str]:
        """Oldest first."""
        query = (
            select(games.c.id)
            .where(games.c.over == False)  # noqa: E712 (SQL comparison, not Python)
            .order_by(games.c.created_at, games.c.id)
        )
        async with self._reader.connect() as conn:
            return list((await conn.scalars(query)).all())

    # Chat

    async def append_chat(
        self,
        room_code: str,
        game_id: str | None,
        channel: str,
        seat: str | None,
        name: str,
        text: str,
        at: float,
    ) -> ChatLine:
        """The line with the room's next sequence number; LookupError for an unknown room."""
        async with self._write() as conn:
            locked = await conn.scalar(
                select(rooms.c.code)
                .where(rooms.c.code == room_code)
                .with_for_update(key_share=True)
            )
            if locked is None:
                raise LookupError(f"no room {room_code!r}")
            next_seq = select(func.coalesce(func.max(chat.c.seq), 0) + 1).where(
                chat.c.room_code == room_code
            )
            line = ChatLine(
                seq=(await conn.execute(next_seq)).scalar_one(),
                room_code=room_code,
                game_id=game_id,
                channel=channel,
                seat=seat,
                name=name,
                text=text,
                at=at,
            )
            await conn.execute(insert(chat).values(**asdict(line)))
        return line

    async def chat_since(self, room_code: str, seq: int, limit: int = 500) -> list[ChatLine]:
        """Lines after `seq`, oldest first, at most `limit` of them."""
        query = (
            select(chat)
            .where(chat.c.room_code == room_code, chat.c.seq > seq)
            .order_by(chat.c.seq)
            .limit(limit)
        )
        async with self._reader.connect() as conn:
            return [_chat(c) for c in await conn.execute(query)]

    async def chat_of_game(self, game_id: str) -> list[ChatLine]:
        query = select(chat).where(chat.c.game_id == game_id).order_by(chat.c.seq)
        async with self._reader.connect() as conn:
            return [_chat(c) for c in await conn.execute(query)]


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


async def _find_action(
    conn: AsyncConnection, game_id: str, seat: str, client_action_id: str | None
) -> ActionRow | None:
    if client_action_id is None:
        return None
    found = (
        await conn.execute(
            select(*_ACTION_COLUMNS).where(
                actions.c.game_id == game_id,
                actions.c.seat == seat,
                actions.c.client_action_id == client_action_id,
            )
        )
    ).first()
    return None if found is None else _action(found)


def _room(r: Row[Any]) -> RoomRow:
    return RoomRow(**r._asdict())


def _action(a: Row[Any]) -> ActionRow:
    return ActionRow(**a._asdict())


def _chat(c: Row[Any]) -> ChatLine:
    return ChatLine(**c._asdict())
