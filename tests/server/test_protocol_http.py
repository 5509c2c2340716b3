"""docs/protocol.md's HTTP section says what the routes do: every route is in its table, every
error status the routes answer is written there with its code, and the listing ignores its
query (the client's `?open=true` is what the doc says, no more)."""

from __future__ import annotations

import re
from pathlib import Path

from server_harness import new_room
from starlette.routing import Route
from starlette.testclient import TestClient

from codebreakers.server.http.routes import STATUS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
HTTP = DOC.split("## HTTP", 1)[1].split("\n## ", 1)[0]


def test_every_route_is_in_the_table(server: TestClient) -> None:
    documented = set(re.findall(r"`(GET|POST|PATCH) (/[^`?]*)", HTTP))
    for route in server.app.routes:
        if isinstance(route, Route):
            for method in route.methods - {"HEAD"}:
                assert (method, route.path) in documented, (method, route.path)


def test_every_error_status_is_written_with_its_code() -> None:
    for code, status in STATUS.items():
        assert re.search(rf"`{status}\s+{code}`", HTTP), (status, code)
    assert "`400` for every other code" in HTTP


def test_the_listing_ignores_its_query(server: TestClient) -> None:
    public = server.post("/api/rooms", json={"game": "decrypto", "public": True}).json()["code"]
    new_room(server)
    for query in ("", "?open=true", "?open=false", "?open=1&x=2"):
        rooms = server.get(f"/api/rooms{query}").json()["rooms"]
        assert [r["code"] for r in rooms] == [public], query
