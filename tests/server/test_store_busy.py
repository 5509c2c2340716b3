"""An overloaded database (no connection free in time) is `busy`, not a server failure: the
client gets a code it can translate and retry on, and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from server_harness import Client, new_room
from starlette.testclient import TestClient

from codebreakers.store.base import StoreBusy


class Overloaded:
    """Makes the store's room writes (and creations) raise StoreBusy while `on`."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.on = False
        for name in ("update_room", "create_room"):
            real = getattr(store, name)
            monkeypatch.setattr(store, name, self._guard(real))

    def _guard(self, real: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.on:
                raise StoreBusy("QueuePool limit reached")
            return await real(*args, **kwargs)

        return call


def test_busy_store_refuses_with_busy_and_changes_nothing(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = server.app.state.node.ports.store  # type: ignore[attr-defined]
    overloaded = Overloaded(store, monkeypatch)
    code = new_room(server)
    client = Client(server, code)
    overloaded.on = True
    refused = client.request({"type": "join", "name": "Ann"})
    assert (refused["type"], refused["code"]) == ("error", "busy")
    answer = server.post("/api/rooms", json={"game": "decrypto", "options": {}})
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "busy"
    assert server.get(f"/api/rooms/{code}").json()["players"] == []
    overloaded.on = False
    client.join("Ann")  # the same request, again, once the database keeps up
    assert len(server.get(f"/api/rooms/{code}").json()["players"]) == 1
