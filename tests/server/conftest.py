"""Fixtures for the server tests: an app on a temporary SQLite database, in-process."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import OPEN, make_ports
from starlette.testclient import TestClient

from codebreakers.campaigns.killable_nodes import postgres_database
from codebreakers.server.app import create_app
from codebreakers.server.ops.config import ServerConfig


@pytest.fixture
def server_with(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Start an app with these settings (and ports) on a fresh database; stopped at teardown."""
    started: list[TestClient] = []

    def start(ports: dict[str, Any] | None = None, **settings: Any) -> TestClient:
        config = ServerConfig(**{"bot_delay_s": 0.0, **settings})
        db = tmp_path / f"t{len(started)}.db"
        http = TestClient(create_app(make_ports(db, **(ports or {})), config))
        http.__enter__()
        started.append(http)
        return http

    yield start
    for client in list(OPEN):
        client.close()
    for http in started:
        http.__exit__(None, None, None)


@pytest.fixture
def server(server_with: Callable[..., TestClient]) -> TestClient:
    return server_with()


@pytest.fixture
def start_real_server(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Starts real `codebreakers serve` processes with the given options; stops them after."""
    from real_server import RealServer

    servers: list[RealServer] = []

    def run(*args: str) -> RealServer:
        server = RealServer(tmp_path / f"s{len(servers)}.db", tmp_path / "serve.log", args)
        servers.append(server)
        server.start()
        return server

    yield run
    for server in servers:
        server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """One database both nodes use: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    with postgres_database(request.getfixturevalue("postgres_url")) as url:
        yield url
