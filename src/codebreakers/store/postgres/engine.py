"""A SQLAlchemy engine (asyncpg under it) on the PostgreSQL database, for what needs
SQLAlchemy: migrations (Alembic) and tools (the upgrade campaign, tests). The store's own
queries never go through it (`store.py`).

Work runs under `run_sync`, so tools write ordinary SQLAlchemy code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

T = TypeVar("T")

# Two nodes starting together must not both create the tables: a schema change first takes this
# transaction-scoped advisory lock, so the second waits and then finds the schema current.
SCHEMA_LOCK = 0x436F6465  # "Code"


class PostgresRunner:
    """Runs `work(connection, *args)` in a transaction of its own on one PostgreSQL database."""

    def __init__(self, url: URL) -> None:
        self._url = url.set(drivername="postgresql+asyncpg")
        self._engine: AsyncEngine | None = None

    async def open(self) -> None:
        self._engine = create_async_engine(self._url)

    async def close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            await engine.dispose()

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        async with self._live_engine().connect() as conn:
            return await conn.run_sync(work, *args)

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        async with self._live_engine().begin() as conn:
            return await conn.run_sync(work, *args)

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        """A write that first waits for any other node's schema change to end."""
        return await self.write(_locked, work, *args)

    def _live_engine(self) -> AsyncEngine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine


def _locked(conn: Connection, work: Callable[..., T], *args: Any) -> T:
    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})")
    return work(conn, *args)
