"""A server of its own for the quick-play browser tests: bots move at once and a quick-join
lobby offers its host bots at once (both waits are settings: --bot-delay, --offer-bots-after)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from e2e.server_process import ServerProcess


@pytest.fixture
def bot_server(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ServerProcess]:
    monkeypatch.setenv("CODEBREAKERS_BOT_DELAY", "0")
    monkeypatch.setenv("CODEBREAKERS_OFFER_BOTS_AFTER", "0")
    server = ServerProcess(tmp_path_factory.mktemp("bot-server"))
    server.start()
    try:
        yield server
    finally:
        server.stop()
