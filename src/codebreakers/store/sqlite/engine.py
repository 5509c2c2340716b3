"""A SQLAlchemy engine on the SQLite file, for what needs SQLAlchemy: migrations (Alembic) and
tools (the upgrade campaign, tests). The store's own queries never go through it (`store.py`).

Its connections come from `connect.connect`, so they carry the same pragmas. Work runs in a
worker thread; a write begins with BEGIN IMMEDIATE, so a read-then-write transaction never has
to upgrade its lock (which in WAL mode fails instead of waiting).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL

from codebreakers.store.sqlite.connect import SqliteFile, connect
from codebreakers.store.sqlite.queries import json_text

T = TypeVar("T")
_WRITE = "codebreakers_write"  # execution option read by the BEGIN hook


class SqliteRunner:
    """Runs `work(connection, *args)` in a transaction of its own on one SQLite file."""

    def __init__(self, file: SqliteFile) -> None:
        self.file = file
        self._url = URL.create("sqlite+pysqlite", database=str(file.path))
        self._engine: Engine | None = None

    async def open(self) -> None:
        self.file.path.parent.mkdir(parents=True, exist_ok=True)
        self._engine = self._create_engine(foreign_keys=True)

    async def close(self) -> None:
        engine, self._engine = self._engine, None
        if engine is not None:
            engine.dispose()

    async def read(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(_read, self._live_engine(), work, args)

    async def write(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(_write, self._live_engine(), work, args, False)

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        """A write transaction fit for migrations (foreign keys checked once, at the end).

        A batch migration rebuilds a table by copying, dropping and renaming it; dropping `rooms`
        or `games` would fail on the rows that point at them. Enforcement can only be switched
        off outside a transaction, hence a short-lived engine of its own; `foreign_key_check`
        then runs before COMMIT, and a dangling row rolls everything back.
        """
        self.file.path.parent.mkdir(parents=True, exist_ok=True)
        engine = self._create_engine(foreign_keys=False)
        try:
            return await asyncio.to_thread(_write, engine, work, args, True)
        finally:
            engine.dispose()

    def _live_engine(self) -> Engine:
        if self._engine is None:
            raise RuntimeError("the store is not open")
        return self._engine

    def _create_engine(self, *, foreign_keys: bool) -> Engine:
        engine = create_engine(
            self._url,
            creator=partial(connect, self.file, foreign_keys=foreign_keys),
            json_serializer=json_text,  # JSON columns written as the adapter writes them
        )

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            write = conn.get_execution_options().get(_WRITE, False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine


def _read(engine: Engine, work: Callable[..., T], args: tuple[Any, ...]) -> T:
    with engine.connect() as conn:
        return work(conn, *args)


def _write(engine: Engine, work: Callable[..., T], args: tuple[Any, ...], checked: bool) -> T:
    with engine.execution_options(**{_WRITE: True}).begin() as conn:
        result = work(conn, *args)
        if checked:
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"schema change left rows pointing at nothing: {broken[:5]}")
        return result
