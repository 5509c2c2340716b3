"""Fixtures for the server tests: an app on a temporary SQLite database, in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import OPEN, make_ports
from starlette.testclient import TestClient

from codebreakers.server.app import create_app
from codebreakers.server.config import ServerConfig


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(make_ports(tmp_path / "t.db"), ServerConfig(bot_delay_s=0))
    with TestClient(app) as http:
        yield http
        for client in list(OPEN):
            client.close()
