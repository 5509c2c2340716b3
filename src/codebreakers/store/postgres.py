"""How the store runs its queries on PostgreSQL: asyncpg, through SQLAlchemy's async engine.

A query function runs under `run_sync`, so the same SQL as on SQLite executes with asyncpg
awaiting each statement. Stale pooled connections (a restarted server) are caught by a pre-ping.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.engine import URL
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from codebreakers.store.base import StoreBusy

T = TypeVar("T")

# Two nodes starting together must not both create the tables: a schema change first takes this
# transaction-scoped advisory lock, so the second waits and then finds the schema current.
_SCHEMA_LOCK = 0x436F6465  # "Code"


# SQLAlchemy's pool defaults, spelt out: calls beyond 15 at once queue for a connection, and
# one that waits longer than POOL_TIMEOUT_S is refused as StoreBusy.
POOL_SIZE = 5
MAX_OVERFLOW = 10
POOL_TIMEOUT_S = 30.0


class PostgresRunner:
    """Runs query functions in transactions on one PostgreSQL database."""

    def __init__(
        self,
        url: URL,
        pool_size: int = POOL_SIZE,
        max_overflow: int = MAX_OVERFLOW,
        pool_timeout: float = POOL_TIMEOUT_S,
    ) -> None:
        self._url = url.set(drivername="postgresql+asyncpg")
        self._pool = {
            "pool_size": pool_size,
            "max_overflow": max_overflow,
            "pool_timeout": pool_timeout,
        }
        self._engine: AsyncEngine | None = None

    async def open(self) -> None:
        self._engine = create_async_engine(self._url, pool_pre_ping=True, **self._pool)

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
            self._engine = None

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        try:
            async with self._live_engine().connect() as conn:
                return await conn.run_sync(work, *args)
        except PoolTimeout as exc:
            raise StoreBusy(str(exc)) from exc

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        try:
            async with self._live_engine().begin() as conn:
                return await conn.run_sync(work, *args)
        except PoolTimeout as exc:  # raised while waiting for a connection: nothing was run
            raise StoreBusy(str(exc)) from exc

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        return await self.write(_locked, work, *args)

    def _live_engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine


def _locked(conn: Connection, work: Callable[..., T], *args: Any) -> T:
    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK})")
    return work(conn, *args)
