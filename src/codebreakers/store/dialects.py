"""Which database a URL names: the store's adapter for it, and the SQLAlchemy runner that
migrations and tools use on it.

Everything that differs between SQLite and PostgreSQL lives in their two adapters
(`sqlite/`, `postgres/`), each with its own SQL; SQLAlchemy serves only the schema
(`schema.py`, Alembic migrations) and tools that want a SQLAlchemy connection (`runner`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import URL, make_url

from codebreakers.store.base import Store
from codebreakers.store.sqlite import SqliteFile, SqliteRunner, SqliteStore

T = TypeVar("T")


class Runner(Protocol):
    """Runs `work(connection, *args)`, on a SQLAlchemy Connection, in a transaction of its own:
    for migrations and tools, never for the store's own queries."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def read(self, work: Callable[..., T], *args: Any) -> T: ...

    async def write(self, work: Callable[..., T], *args: Any) -> T: ...

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        """A write fit for migrations, serialised against other nodes doing the same."""
        ...


def adapter(url: str) -> Store:
    """The store for sqlite:/// (any driver) or postgresql:// / postgres:// URLs."""
    parsed, backend = _parse(url)
    if backend == "sqlite":
        return SqliteStore(_sqlite_file(parsed))
    # Imported here, as in `runner`: asyncpg (and SQLAlchemy's asyncio extra, greenlet) are
    # needed only with PostgreSQL.
    from codebreakers.store.postgres.store import PostgresStore

    return PostgresStore(parsed)


def runner(url: str) -> Runner:
    """A SQLAlchemy runner on the same database (same URLs as `adapter`)."""
    parsed, backend = _parse(url)
    if backend == "sqlite":
        return SqliteRunner(_sqlite_file(parsed))
    from codebreakers.store.postgres.engine import PostgresRunner  # SQLAlchemy's async engine

    return PostgresRunner(parsed)


def _parse(url: str) -> tuple[URL, str]:
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError(
                "an in-memory SQLite database can't be shared by the store's connections; "
                "give a file path (sqlite:///path/to/codebreakers.db)"
            )
        return parsed, backend
    if backend in ("postgresql", "postgres"):
        return parsed, "postgresql"
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///path or postgresql://...")


def _sqlite_file(url: URL) -> SqliteFile:
    assert url.database is not None
    synchronous = url.query.get("synchronous")
    if synchronous is not None and not isinstance(synchronous, str):
        raise ValueError(f"synchronous given twice: {synchronous!r}")
    return SqliteFile.of(url.database, synchronous)
