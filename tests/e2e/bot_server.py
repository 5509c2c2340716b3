"""A server of its own for the quick-play browser tests: bots move at once and a quick-join
lobby offers its host bots at once (both waits are settings: --bot-delay, --offer-bots-after)."""

from __future__ import annotations

import pytest

from e2e.server_process import ServerProcess


@pytest.fixture
def bot_server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> ServerProcess:
    """`own_server`, started with both waits at 0."""
    monkeypatch.setenv("CODEBREAKERS_BOT_DELAY", "0")
    monkeypatch.setenv("CODEBREAKERS_OFFER_BOTS_AFTER", "0")
    server: ServerProcess = request.getfixturevalue("own_server")  # starts with this environment
    return server
