"""Which database a URL names, and the runner that executes the store's queries on it.

Everything that differs between SQLite and PostgreSQL lives in the two runners (`sqlite.py`,
`postgres.py`); the SQL itself is written once, in `queries.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy.engine import make_url

from codebreakers.store.postgres import PostgresRunner
from codebreakers.store.sqlite import SqliteRunner, SqliteStoreRunner

T = TypeVar("T")


class Runner(Protocol):
    """Runs a query function `work(connection, *args)` in a transaction of its own.

    The connection is SQLAlchemy's, except in `store_runner`'s SQLite runner: a `queries.Db`.
    """

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def read(self, work: Callable[..., T], *args: Any) -> T: ...

    async def write(self, work: Callable[..., T], *args: Any) -> T: ...

    async def schema_change(self, work: Callable[..., T], *args: Any) -> T:
        """A write fit for migrations, serialised against other nodes doing the same."""
        ...


def runner(url: str) -> Runner:
    """The runner for sqlite:/// (any driver) or postgresql:// / postgres:// URLs."""
    return _runner(url, SqliteRunner)


def store_runner(url: str) -> Runner:
    """The runner `SqlStore` uses: its work is `queries` functions, which need only a `queries.Db`,
    so on SQLite they run straight on the driver with writes group-committed (`sqlite.py`)."""
    return _runner(url, SqliteStoreRunner)


def _runner(url: str, sqlite_runner: type[SqliteRunner]) -> Runner:
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError(
                "an in-memory SQLite database can't be shared by the store's connections; "
                "give a file path (sqlite:///path/to/codebreakers.db)"
            )
        return sqlite_runner(parsed)
    if backend in ("postgresql", "postgres"):
        return PostgresRunner(parsed)
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///path or postgresql://...")
