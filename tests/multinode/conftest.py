"""Several real `codebreakers serve` nodes sharing one PostgreSQL database and one Redis.

The subprocess servers and the WebSocket clients are the server tests' own (`real_server`,
`server_harness`); the PostgreSQL database per test is made by the store tests' factory. Each
test gets its own `redis-server` on a free port, because restarting the machine's shared Redis
would disturb tests running alongside.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS / "server"))

from multinode_helpers import OwnRedis  # noqa: E402
from real_server import RealServer  # noqa: E402
from server_harness import OPEN  # noqa: E402


def _store_fixtures() -> object:
    spec = importlib.util.spec_from_file_location("store_fixtures", TESTS / "store" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


database_factory = _store_fixtures().database_factory  # type: ignore[attr-defined]


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None and not Path("/usr/bin/redis-server").exists():
        pytest.skip("redis-server is not installed")
    server = OwnRedis(tmp_path / "redis.log")
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


@pytest.fixture
def nodes(
    tmp_path: Path, database_factory: Callable[[], str], own_redis: OwnRedis
) -> Iterator[list[RealServer]]:
    """Two started nodes on one new PostgreSQL database and the test's own Redis."""
    db = database_factory()
    started = [
        RealServer(db, tmp_path / f"node{i}.log", ("--redis", own_redis.url)) for i in range(2)
    ]
    for node in started:  # one after the other: each start has its own deadline
        node.start()
    yield started
    for client in list(OPEN):
        client.close()
    for node in started:
        node.stop()
