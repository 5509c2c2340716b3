"""The PostgreSQL adapter: the store's ports on one database, through asyncpg directly.

Each port method is one function of `queries.py` on a pooled connection: a write inside a
transaction, a read without one (one statement, or statements that each see the latest commits,
as they would under READ COMMITTED). Appends and room updates, the hot path, go through a group
committer (`commit.py`): those that queue up together go in one statement, each row with its own
version check. asyncpg prepares each statement once per connection and reuses it. Migrations run
through SQLAlchemy and Alembic first (`engine.py`).

The pool holds at most POOL_SIZE connections. Busy handling is the adapter's: a call waits up to
POOL_TIMEOUT_S for a free connection, then fails with `StoreBusy`, nothing having run. A pooled
connection the server dropped meanwhile (a restarted database) is found by the first statement
that uses it, before anything ran (a write's BEGIN, a read); the call then takes another
connection, once. A batch statement whose connection is lost while it runs (its outcome unknown)
runs once more on another connection; a write found stored exactly as given counts as done
(`queries.append_actions`), so a retry, the store's or its caller's, neither doubles nor
misreports a write. There is no ping
before every call, and no reset query after it: the adapter leaves no session state behind
(every transaction ends; the schema lock is transaction-scoped).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import Any, Concatenate, ParamSpec, TypeVar

import asyncpg
import msgspec
from sqlalchemy.engine import URL

from codebreakers.store import migrate
from codebreakers.store.base import (
    JSON,
    ActionRow,
    AppendResult,
    ChatLine,
    GamePlayer,
    GameRow,
    PasskeyRow,
    ProfileGame,
    ProfileRoom,
    ProfileRow,
    RoomHead,
    RoomRow,
    StoreBusy,
)
from codebreakers.store.postgres import profile_queries, queries
from codebreakers.store.postgres.commit import GroupCommitter
from codebreakers.store.postgres.engine import PostgresRunner

T = TypeVar("T")
W = TypeVar("W")
P = ParamSpec("P")
Work = Callable[Concatenate[asyncpg.Connection, P], Awaitable[T]]

# Calls beyond POOL_SIZE at once queue for a connection; one that waits longer than
# POOL_TIMEOUT_S is refused as StoreBusy.
POOL_SIZE = 15
POOL_TIMEOUT_S = 30.0
# What a connection lost under us raises (the server restarted, the network dropped it); the
# protocol may also be caught between states when the server's goodbye arrives mid-call.
CONNECTION_LOST = (
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.AdminShutdownError,
    ConnectionError,
)

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode


def _json_text(value: Any) -> str:
    return _encode(value).decode()


async def _configure(conn: asyncpg.Connection) -> None:
    """JSONB in and out through msgspec, on every new connection."""
    await conn.set_type_codec(
        "jsonb", schema="pg_catalog", encoder=_json_text, decoder=_decode, format="text"
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release: nothing to reset (see the module's docstring)."""


class PostgresStore:
    """`Store` on one PostgreSQL database."""

    def __init__(
        self, url: URL, pool_size: int = POOL_SIZE, pool_timeout: float = POOL_TIMEOUT_S
    ) -> None:
        self._url = url
        self._pool_size = pool_size
        self._pool_timeout = pool_timeout
        self._pool: asyncpg.Pool | None = None
        self.appends: GroupCommitter[tuple[str, ActionRow], AppendResult] = GroupCommitter(
            partial(self._batch, queries.append_actions)
        )
        self.room_updates: GroupCommitter[queries.RoomUpdate, bool] = GroupCommitter(
            partial(self._batch, queries.update_rooms)
        )

    async def open(self) -> None:
        """Migrate, then connect; a failure leaves it closed."""
        if self._pool is not None:
            raise RuntimeError("the store is already open")
        runner = PostgresRunner(self._url)
        await runner.open()
        try:
            await runner.schema_change(migrate.upgrade)
        finally:
            await runner.close()
        dsn = self._url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._pool = await asyncpg.create_pool(
            dsn, min_size=1, max_size=self._pool_size, init=_configure, reset=_keep_session
        )
        self.appends.start()
        self.room_updates.start()

    async def close(self) -> None:
        await self.appends.stop()
        await self.room_updates.stop()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    # How work runs

    async def read(self, work: Work[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`work(connection, *args)` outside a transaction: it must only read."""
        for attempt in (1, 2):
            async with self._connection() as conn:
                try:
                    return await work(conn, *args, **kwargs)
                except CONNECTION_LOST:
                    if attempt == 2:  # a read may always run again, once
                        raise
                    conn.terminate()
        raise AssertionError("unreachable")

    async def write(self, work: Work[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`work(connection, *args)` in a transaction of its own."""
        for attempt in (1, 2):
            async with self._connection() as conn:
                transaction = conn.transaction()
                try:
                    await transaction.start()
                except Exception:
                    if attempt == 2:  # nothing ran: take another connection, once
                        raise
                    conn.terminate()
                    continue
                try:
                    result = await work(conn, *args, **kwargs)
                except BaseException:
                    await _rollback(transaction)
                    raise
                try:
                    await transaction.commit()
                except BaseException:
                    # Cancelled or cut off while committing: whether it committed is unknown,
                    # and the connection is in no state to be used again.
                    conn.terminate()
                    raise
                return result
        raise AssertionError("unreachable")

    async def _batch(
        self,
        statement: Callable[[asyncpg.Connection, list[W], bool], Awaitable[list[Any]]],
        batch: list[W],
    ) -> list[Any]:
        """`statement(connection, batch, retried)` on its own: one result or exception per
        write. Run again once on another connection when its connection was lost (`retried`:
        the first run may have committed, and the statement recognises its own rows); run write
        by write when the database refused the statement, so that only the faulty write fails.
        """
        for attempt in (1, 2):
            async with self._connection() as conn:
                try:
                    return await statement(conn, batch, attempt == 2)
                except CONNECTION_LOST:
                    conn.terminate()
                    if attempt == 2:
                        raise
                except asyncpg.PostgresError:
                    if len(batch) == 1:
                        raise
                    return [await _alone(statement, conn, write) for write in batch]
        raise AssertionError("unreachable")

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        try:
            conn = await self._pool.acquire(timeout=self._pool_timeout)
        except TimeoutError as exc:  # waiting for a connection: nothing was run
            raise StoreBusy(f"no database connection free in {self._pool_timeout} s") from exc
        try:
            yield conn
        finally:
            await self._pool.release(conn)

    # Rooms

    async def create_room(self, row: RoomRow) -> bool:
        return await self.write(queries.create_room, row)

    async def load_room(self, code: str) -> RoomRow | None:
        return await self.read(queries.load_room, code)

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
        update = queries.RoomUpdate(code, expected_version, data, public, waiting, now)
        return await self.room_updates.submit(code, update)

    async def list_rooms(self, *, public: bool, waiting: bool, limit: int) -> list[RoomRow]:
        return await self.read(queries.list_rooms, public, waiting, limit)

    async def room_head(self, room_code: str, game_id: str | None) -> RoomHead | None:
        return await self.read(queries.room_head, room_code, game_id)

    # Games and their action log

    async def create_game(
        self,
        game_id: str,
        room_code: str,
        game: str,
        setup: JSON,
        now: float,
        players: Sequence[GamePlayer] = (),
    ) -> None:
        await self.write(queries.create_game, game_id, room_code, game, setup, now, players)

    async def load_game(self, game_id: str) -> GameRow | None:
        return await self.read(queries.load_game, game_id)

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        return await self.appends.submit(game_id, (game_id, row))

    async def actions_since(self, game_id: str, version: int) -> list[ActionRow]:
        return await self.read(queries.actions_since, game_id, version)

    async def find_action(self, game_id: str, seat: str, client_action_id: str) -> ActionRow | None:
        return await self.read(queries.find_action, game_id, seat, client_action_id)

    async def finish_game(self, game_id: str, outcome: JSON) -> None:
        await self.write(queries.finish_game, game_id, outcome)

    async def live_games(self) -> list[str]:
        return await self.read(queries.live_games)

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
        client_id: str | None = None,
        profile_id: str | None = None,
    ) -> ChatLine:
        return await self.write(
            queries.append_chat,
            room_code,
            game_id,
            channel,
            seat,
            name,
            text,
            at,
            client_id,
            profile_id,
        )

    async def find_chat(self, room_code: str, seat: str, client_id: str) -> ChatLine | None:
        return await self.read(queries.find_chat, room_code, seat, client_id)

    async def chat_since(self, room_code: str, seq: int, limit: int = 500) -> list[ChatLine]:
        return await self.read(queries.chat_since, room_code, seq, limit)

    async def chat_of_game(self, game_id: str) -> list[ChatLine]:
        return await self.read(queries.chat_of_game, game_id)

    # Profiles

    async def create_profile(self, row: ProfileRow, secret_hash: str) -> None:
        await self.write(profile_queries.create_profile, row, secret_hash)

    async def load_profile(self, profile_id: str) -> ProfileRow | None:
        return await self.read(profile_queries.load_profile, profile_id)

    async def profile_by_secret(self, secret_hash: str) -> ProfileRow | None:
        return await self.read(profile_queries.profile_by_secret, secret_hash)

    async def update_profile(
        self, profile_id: str, *, name: str, language: str, hidden: bool
    ) -> bool:
        return await self.write(profile_queries.update_profile, profile_id, name, language, hidden)

    async def add_device(self, profile_id: str, secret_hash: str, now: float) -> None:
        await self.write(profile_queries.add_device, profile_id, secret_hash, now)

    async def forget_secret(self, secret_hash: str) -> None:
        await self.write(profile_queries.forget_secret, secret_hash)

    async def add_passkey(self, row: PasskeyRow) -> bool:
        return await self.write(profile_queries.add_passkey, row)

    async def find_passkey(self, credential_id: str) -> PasskeyRow | None:
        return await self.read(profile_queries.find_passkey, credential_id)

    async def passkeys_of(self, profile_id: str) -> list[PasskeyRow]:
        return await self.read(profile_queries.passkeys_of, profile_id)

    async def use_passkey(self, credential_id: str, sign_count: int, now: float) -> bool:
        return await self.write(profile_queries.use_passkey, credential_id, sign_count, now)

    async def join_room(self, room_code: str, player_id: str, profile_id: str, now: float) -> None:
        await self.write(profile_queries.join_room, room_code, player_id, profile_id, now)

    async def rooms_of(self, profile_id: str, limit: int) -> list[ProfileRoom]:
        return await self.read(profile_queries.rooms_of, profile_id, limit)

    async def finished_games_of(self, profile_id: str, limit: int) -> list[ProfileGame]:
        return await self.read(profile_queries.finished_games_of, profile_id, limit)


async def _alone(
    statement: Callable[[asyncpg.Connection, list[W], bool], Awaitable[list[Any]]],
    conn: asyncpg.Connection,
    write: W,
) -> Any:
    """One write of a refused batch on its own: its result, or the error it alone raises."""
    try:
        return (await statement(conn, [write], False))[0]
    except CONNECTION_LOST:
        raise
    except asyncpg.PostgresError as exc:
        return exc


async def _rollback(transaction: Any) -> None:
    """Roll back after a failed work; a connection that is gone has nothing left to undo."""
    try:
        await transaction.rollback()
    except CONNECTION_LOST:
        pass
    except asyncio.CancelledError:
        raise
