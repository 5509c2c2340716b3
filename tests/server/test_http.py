"""The HTTP side: health, the client's page and files, rooms, the open-tables list, QR, records."""

from __future__ import annotations

from server_harness import Table, join_all, new_room
from starlette.testclient import TestClient


def test_health_page_and_static_files(server: TestClient) -> None:
    assert server.get("/healthz").json() == {"status": "ok"}
    for path in ("/", "/r/ABCDEF"):
        page = server.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    script = server.get("/static/app.js", headers={"accept-encoding": "gzip"})
    assert script.status_code == 200 and script.headers.get("content-encoding") == "gzip"
    missing = server.get("/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_creating_rooms_and_their_errors(server: TestClient) -> None:
    made = server.post("/api/rooms", json={"game": "decrypto", "options": {"words": "fr"}})
    assert made.status_code == 201
    body = made.json()
    code = body["code"]
    assert len(code) == 6 and body["url"] == f"http://testserver/r/{code}"
    assert body["room"]["options"]["words"] == "fr" and body["room"]["status"] == "waiting"
    described = server.get(f"/api/rooms/{code.lower()}").json()
    assert described["code"] == code and described["players"] == []

    def error(answer) -> tuple[int, str]:
        return answer.status_code, answer.json()["error"]["code"]

    json_body = {"content-type": "application/json"}
    assert error(server.post("/api/rooms", content=b"{", headers=json_body)) == (400, "bad_json")
    huge = b'{"game": "decrypto", "options": {"x": "' + b"y" * 70_000 + b'"}}'
    too_large = server.post("/api/rooms", content=huge, headers=json_body)
    assert error(too_large) == (413, "frame_too_large")
    assert error(server.post("/api/rooms", json={"options": {}})) == (400, "bad_message")
    assert error(server.post("/api/rooms", json={"game": "chess"})) == (400, "unknown_game")
    bad_option = server.post("/api/rooms", json={"game": "decrypto", "options": {"x": 1}})
    assert error(bad_option) == (400, "unknown_option")
    assert error(server.get("/api/rooms/ZZZZZZ")) == (404, "room_not_found")
    assert error(server.get("/api/rooms/0O0O0O/qr.svg")) == (404, "room_not_found")


def test_public_rooms_are_listed_while_they_wait(server: TestClient) -> None:
    public = server.post("/api/rooms", json={"game": "decrypto", "public": True}).json()["code"]
    private = new_room(server)
    listed = {r["code"]: r for r in server.get("/api/rooms?open=true").json()["rooms"]}
    assert public in listed and private not in listed
    assert listed[public]["free_seats"] == 8 and listed[public]["players"] == 0

    clients = join_all(server, public)
    clients[0].ok({"type": "start"})
    listed = {r["code"] for r in server.get("/api/rooms?open=true").json()["rooms"]}
    assert public not in listed


def test_qr_code_of_the_share_link(server: TestClient) -> None:
    code = new_room(server)
    svg = server.get(f"/api/rooms/{code}/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg")


def test_records_need_a_seat_token_until_the_game_is_over(server: TestClient) -> None:
    code = new_room(server)
    clients = join_all(server, code)
    clients[0].ok({"type": "start"})
    game_id = clients[0].room["game_id"]
    url = f"/api/games/{game_id}/record"
    assert server.get(url).status_code == 401
    assert server.get(url, headers={"x-seat-token": "forged"}).status_code == 401
    partial = server.get(url, headers={"x-seat-token": clients[1].token}).json()
    assert partial["complete"] is False and partial["actions"] is None
    assert partial["view"]["you"]["seat"] == clients[1].you
    assert "seed" not in partial["setup"]

    table = Table(clients)
    table.sync(0)
    clients[0].ok({"type": "chat", "channel": "all", "text": "gg"})
    table.play_out()
    full = server.get(url).json()
    assert full["complete"] is True and full["setup"]["seed"] is not None
    assert [line["text"] for line in full["chat"]] == ["gg"]
    assert server.get("/api/games/nope/record").json()["error"]["code"] == "game_not_found"
