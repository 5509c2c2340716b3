"""`join` with `watch`: a visitor becomes a spectator at once, without taking a seat first."""

from __future__ import annotations

from server_harness import Client, new_room
from starlette.testclient import TestClient


def test_a_visitor_can_join_as_a_spectator(server: TestClient) -> None:
    code = new_room(server)
    host = Client(server, code)
    host.join("Ann")
    watcher = Client(server, code)
    watcher.send({"type": "join", "id": "w1", "name": "Zed", "watch": True})
    you = watcher.expect("joined")["you"]
    watcher.expect("ack")
    zed = next(p for p in watcher.room["players"] if p["id"] == you)
    assert zed["team"] is None
    assert all(you not in slots for slots in watcher.room["teams"].values())
    assert watcher.room["host"] == host.you
