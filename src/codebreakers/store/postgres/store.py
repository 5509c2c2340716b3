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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from functools import partial
from types import ModuleType
from typing import Any, ClassVar, Concatenate, ParamSpec, TypeVar

import asyncpg
import msgspec
from sqlalchemy.engine import URL

from codebreakers.store import migrate
from codebreakers.store.base import JSON, ActionRow, AppendResult, StoreBusy
from codebreakers.store.delegate import QueryPorts
from codebreakers.store.postgres import challenge_queries, profile_queries, queries
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


def json_text(value: Any) -> str:
    return _encode(value).decode()


async def _configure(conn: asyncpg.Connection) -> None:
    """JSONB in and out through msgspec, on every new connection."""
    await conn.set_type_codec(
        "jsonb", schema="pg_catalog", encoder=json_text, decoder=_decode, format="text"
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release: nothing to reset (see the module's docstring)."""


class PostgresStore(QueryPorts):
    """`Store` on one PostgreSQL database: the ports' queries (`delegate.py`) run as `read` and
    `write` run them, appends and room updates batched."""

    queries: ClassVar[ModuleType] = queries
    profile_queries: ClassVar[ModuleType] = profile_queries
    challenge_queries: ClassVar[ModuleType] = challenge_queries

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
                    _discard(conn)
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
                    _discard(conn)
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
                    _discard(conn)
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
                    _discard(conn)
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

    # Batched writes (the other port methods: delegate.py)

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

    async def append_action(self, game_id: str, row: ActionRow) -> AppendResult:
        return await self.appends.submit(game_id, (game_id, row))


def _discard(conn: asyncpg.Connection) -> None:
    """Close a connection that can't be used again. When the server cut it, asyncpg's pool
    may already have let go of it (its lost-connection callback runs first): then the proxy
    refuses `terminate` with an InterfaceError, and there is nothing left to close."""
    with suppress(asyncpg.InterfaceError):
        conn.terminate()


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
