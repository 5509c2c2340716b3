"""Which database a URL opens, and how the SQLite file is configured."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import Connection, make_url, text
from sqlalchemy.exc import DatabaseError

from codebreakers.store import default_url, dialects, open_store
from codebreakers.store.base import RoomRow, StoreBusy
from codebreakers.store.postgres import store as store_module
from codebreakers.store.postgres.engine import PostgresRunner
from codebreakers.store.postgres.store import PostgresStore
from codebreakers.store.sqlite import BUSY_TIMEOUT_MS, SqliteRunner, SqliteStore

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("given", "runner", "database"),
    [
        ("sqlite:///rel/x.db", SqliteRunner, "rel/x.db"),
        ("sqlite:////abs/x.db", SqliteRunner, "/abs/x.db"),
        ("sqlite+aiosqlite:////abs/x.db", SqliteRunner, "/abs/x.db"),
        ("postgresql://u:p@h:5432/db", PostgresRunner, "db"),
        ("postgresql+psycopg://u@h/db", PostgresRunner, "db"),
        ("postgres://u@h/db", PostgresRunner, "db"),
    ],
)
def test_urls_pick_the_runner_and_driver(given: str, runner: type, database: str) -> None:
    picked = dialects.runner(given)
    assert isinstance(picked, runner)
    url = picked._url  # type: ignore[attr-defined]
    driver = "sqlite+pysqlite" if runner is SqliteRunner else "postgresql+asyncpg"
    assert (url.drivername, url.database) == (driver, database)
    store = dialects.adapter(given)
    assert isinstance(store, SqliteStore if runner is SqliteRunner else PostgresStore)


@pytest.mark.parametrize(
    "bad", ["sqlite://", "sqlite:///:memory:", "mysql://u@h/db", "sqlite:///x.db?synchronous=off"]
)
def test_unusable_urls_are_refused_with_a_reason(bad: str) -> None:
    with pytest.raises(ValueError, match=r"memory|unsupported|synchronous"):
        dialects.runner(bad)
    with pytest.raises(ValueError, match=r"memory|unsupported|synchronous"):
        open_store(bad)


async def test_default_store_is_created_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'codebreakers' / 'codebreakers.db'}"
    store = open_store(None)
    await store.open()
    try:
        assert await store.create_room(RoomRow("R", "decrypto", {}, 1, True, True, 1.0, 1.0))
    finally:
        await store.close()
    assert (tmp_path / "data" / "codebreakers" / "codebreakers.db").is_file()


async def pragmas(url: str) -> dict[str, object]:
    def read(conn: Connection) -> dict[str, object]:
        return {
            name: conn.scalar(text(f"PRAGMA {name}"))
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
        }

    runner = dialects.runner(url)
    await runner.open()
    try:
        return await runner.read(read)
    finally:
        await runner.close()


async def test_sqlite_runs_in_wal_with_normal_sync_by_default(tmp_path: Path) -> None:
    found = await pragmas(f"sqlite:///{tmp_path / 'a' / 'x.db'}")
    assert found == {
        "journal_mode": "wal",
        "synchronous": 1,  # NORMAL
        "busy_timeout": BUSY_TIMEOUT_MS,
        "foreign_keys": 1,
    }


async def test_sqlite_full_sync_on_request(tmp_path: Path) -> None:
    found = await pragmas(f"sqlite:///{tmp_path / 'x.db'}?synchronous=full")
    assert found["synchronous"] == 2  # FULL


async def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(RuntimeError, match="not open"):
        await store.load_room("R")


async def test_opening_twice_is_refused_and_a_failed_open_leaves_it_closed(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'x.db'}")
    await store.open()
    try:
        with pytest.raises(RuntimeError, match="already open"):
            await store.open()
    finally:
        await store.close()
    (tmp_path / "not-a-db").write_bytes(b"this is not a database" * 100)
    broken = open_store(f"sqlite:///{tmp_path / 'not-a-db'}")
    with pytest.raises(DatabaseError, match="not a database"):
        await broken.open()
    with pytest.raises(RuntimeError, match="not open"):
        await broken.load_room("R")


@pytest.mark.postgres
async def test_a_call_that_waits_too_long_for_a_connection_is_refused_busy(
    module_postgres_url: str,
) -> None:
    """Every pooled connection taken: the next call waits `pool_timeout`, then gets StoreBusy
    (nothing run) instead of a pool error; once a connection is free, calls go through."""
    url = make_url(module_postgres_url)
    store = PostgresStore(url, pool_size=1, pool_timeout=0.2)
    await store.open()
    try:
        assert store._pool is not None
        async with store._pool.acquire():  # the only connection
            with pytest.raises(StoreBusy):
                await store.write(_select_one)
            with pytest.raises(StoreBusy):
                await store.read(_select_one)
        assert await store.write(_select_one) == 1
    finally:
        await store.close()


async def _select_one(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SELECT 1"))


@pytest.mark.postgres
async def test_a_pooled_connection_the_server_dropped_is_replaced_unseen(
    module_postgres_url: str,
) -> None:
    """No ping before each call: a connection the server closed meanwhile (a restart) fails
    at its first statement, before anything ran, and the call takes a new one."""
    store = PostgresStore(make_url(module_postgres_url), pool_size=1)
    await store.open()
    try:
        pid = await store.read(_backend_pid)
        killer = await asyncpg.connect(module_postgres_url)
        try:
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", pid)
        finally:
            await killer.close()
        assert await store.write(_select_one) == 1
        assert await store.read(_backend_pid) != pid
    finally:
        await store.close()


async def test_a_connection_the_pool_already_let_go_is_discarded_quietly(
    module_postgres_url: str,
) -> None:
    """The race behind a flaky failure: the server cuts a connection, asyncpg's pool releases
    it on its own, and the store's retry then closes the proxy it still holds. That close must
    not raise (asyncpg: "connection has been released back to the pool"), or the write fails
    instead of taking a new connection."""
    pool = await asyncpg.create_pool(module_postgres_url, min_size=1, max_size=1)
    try:
        proxy = await pool.acquire()
        await pool.release(proxy)
        with pytest.raises(asyncpg.InterfaceError):
            proxy.terminate()  # what the store did: the race's error, made certain
        store_module._discard(proxy)  # what it does now
        async with pool.acquire() as conn:
            assert await conn.fetchval("SELECT 1") == 1
    finally:
        await pool.close()


async def _backend_pid(conn: asyncpg.Connection) -> int:
    return int(await conn.fetchval("SELECT pg_backend_pid()"))
