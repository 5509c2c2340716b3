"""Quick join recognises a browser that already holds a seat in the room it would pick: the same
player and token come back, instead of a second player (docs/quickplay.md)."""

from __future__ import annotations

from typing import Any

from server_harness import Client
from starlette.testclient import TestClient


def quick_join(http: TestClient, name: str, **body: Any) -> Any:
    answer = http.post("/api/quick-join", json={"name": name, **body})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_quick_join_twice_from_one_browser_is_one_player(server: TestClient) -> None:
    first = quick_join(server, "Ann")
    held = [{"code": "ZZZZZZ", "token": "x" * 32}, {"code": first["code"], "token": first["token"]}]
    again = quick_join(server, "Ann", held=held)
    assert (again["code"], again["you"], again["token"]) == (
        first["code"],
        first["you"],
        first["token"],
    )
    assert again["created"] is False
    me = Client(server, first["code"], token=first["token"])
    assert [p["id"] for p in me.room["players"]] == [first["you"]]
    assert me.room["host"] == first["you"]
    # Another browser (no seat held, or a stranger's token) is a new player in the same room.
    other = quick_join(server, "Bob", held=[{"code": first["code"], "token": "y" * 32}])
    assert other["code"] == first["code"] and other["you"] != first["you"]
    me.close()


def test_the_seats_held_are_bounded(server: TestClient) -> None:
    held = [{"code": "ABCDEF", "token": "t"}] * 33
    answer = server.post("/api/quick-join", json={"name": "Ann", "held": held})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_message"
