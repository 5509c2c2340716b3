"""Store fixtures: every store test runs against a SQLite file and a real PostgreSQL database.

PostgreSQL tests get one uniquely named database per test module (created through asyncpg on the
session's `postgres_url`, emptied before each test, dropped afterwards); tests that need an empty,
unmigrated database ask for `fresh_url`, which makes one per test.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator

import pytest

from codebreakers.campaigns.killable_nodes import admin_sql, postgres_database
from codebreakers.store import open_store
from codebreakers.store.base import Store

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
TABLES = (
    "passkey_challenges, settled_games, game_results, profile_stats, ratings, room_players,"
    " game_players,"
    " passkeys, profile_devices, chat, profiles, actions, games, rooms"
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def database_factory(postgres_url: str) -> Iterator[Callable[[], str]]:
    """Makes uniquely named PostgreSQL databases, dropped when the module is done."""
    with contextlib.ExitStack() as made:
        yield lambda: made.enter_context(postgres_database(postgres_url))


@pytest.fixture(scope="module")
def module_postgres_url(database_factory: Callable[[], str]) -> str:
    return database_factory()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def fresh_url(
    backend: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> str:
    """An empty database of the backend under test, never migrated."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'codebreakers.db'}"
    return request.getfixturevalue("database_factory")()


@pytest.fixture
def store_url(
    backend: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> str:
    """A database for this test: a new SQLite file, or the module's PostgreSQL database emptied."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'codebreakers.db'}"
    url = request.getfixturevalue("module_postgres_url")
    admin_sql(
        url,
        f"DO $$ BEGIN IF to_regclass('rooms') IS NOT NULL THEN TRUNCATE {TABLES}; END IF; END $$",
    )
    return url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    opened = open_store(store_url)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
