"""Browser tests: the real server (`codebreakers serve` as a subprocess on a free port with a
temporary SQLite database) and Debian's Chromium driven by Playwright, never a downloaded browser.

Set CODEBREAKERS_E2E_URL to run the shared-server tests against a server already running.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from e2e.server_process import ServerProcess
from e2e.table_driver import CHROMIUM_ARGS, TIMEOUT_MS

# Assertions wait as long as actions do: the suite shares two cores with a server and browsers.
expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    external = os.environ.get("CODEBREAKERS_E2E_URL")
    if external:
        yield external.rstrip("/")
        return
    server = ServerProcess(tmp_path_factory.mktemp("server"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server for one test alone, which the test may stop and start again."""
    server = ServerProcess(tmp_path_factory.mktemp("own-server"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()
