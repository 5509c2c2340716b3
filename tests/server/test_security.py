"""Security headers on every response, no cross-site writes, an Origin check on scheme, host and
port, and /metrics on a port of its own."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from real_server import free_port
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from codebreakers.cli import build_parser
from codebreakers.server.http.routes import WEB_DIR
from codebreakers.server.http.security import CSP, same_origin

JSON = {"content-type": "application/json"}
ROOM = json.dumps({"game": "decrypto"})


def test_every_response_carries_the_security_headers(server: TestClient) -> None:
    answers = [
        server.get("/"),
        server.get("/r/ABCDEF"),
        server.get("/static/app.js"),
        server.get("/api/rooms?open=true"),
        server.get("/nope"),
        server.post("/api/rooms", content=b"{", headers=JSON),
        server.get("/healthz"),
    ]
    for answer in answers:
        assert answer.headers["content-security-policy"] == CSP, answer.url
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in CSP


def test_the_header_policy_keeps_every_directive_of_the_pages_meta_tag() -> None:
    page = (WEB_DIR / "index.html").read_text()
    meta = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', page)
    assert meta is not None
    header = {d.strip() for d in CSP.split(";")}
    assert {d.strip() for d in meta.group(1).split(";")} <= header


def test_cross_site_writes_are_refused_and_make_nothing(server: TestClient) -> None:
    def code(answer: httpx.Response) -> tuple[int, str]:
        return answer.status_code, answer.json()["error"]["code"]

    foreign = {**JSON, "origin": "https://evil.example"}
    for path in ("/api/rooms", "/api/play-now", "/api/quick-join"):
        assert code(server.post(path, content=ROOM, headers=foreign)) == (403, "bad_origin")
    sneaky = {**JSON, "sec-fetch-site": "cross-site"}
    assert code(server.post("/api/rooms", content=ROOM, headers=sneaky)) == (403, "bad_origin")
    other_scheme = {**JSON, "origin": "https://testserver"}
    assert code(server.post("/api/rooms", content=ROOM, headers=other_scheme))[0] == 403
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {"content-type": kind} if kind else {}
        answer = server.post("/api/rooms", content=ROOM, headers=headers)
        assert code(answer) == (415, "bad_content_type"), kind
    assert server.get("/api/rooms?open=true").json() == {"rooms": []}
    own = {"content-type": "application/json; charset=utf-8", "origin": "http://testserver"}
    assert server.post("/api/rooms", content=ROOM, headers=own).status_code == 201
    assert server.post("/api/rooms", json={"game": "decrypto"}).status_code == 201  # a tool


@pytest.mark.parametrize(
    ("origin", "public_url", "scheme", "host", "same"),
    [
        ("http://testserver", None, "ws", "testserver", True),
        ("http://testserver:80", None, "ws", "testserver", True),
        ("https://testserver", None, "ws", "testserver", False),
        ("http://testserver:8000", None, "ws", "testserver", False),
        ("https://games.example.org", None, "wss", "games.example.org", True),
        ("null", None, "ws", "testserver", False),
        ("https://games.example.org:443", "https://games.example.org", "ws", "node1:8000", True),
        ("http://games.example.org", "https://games.example.org", "ws", "node1:8000", False),
        ("https://games.example.org:8443", "https://games.example.org", "ws", "x", False),
        ("https://GAMES.example.org/", "https://games.example.org/", "ws", "x", True),
    ],
)
def test_origins_match_on_scheme_host_and_port(origin, public_url, scheme, host, same) -> None:
    assert same_origin(origin, public_url, scheme, host) is same


def test_a_socket_from_the_https_origin_of_a_plain_http_server_is_refused(server) -> None:
    with server.websocket_connect("/ws", headers={"origin": "https://testserver"}) as ws:
        assert json.loads(ws.receive_text())["code"] == "bad_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1008


def test_metrics_are_not_on_the_games_port(server_with) -> None:
    assert build_parser().parse_args(["serve"]).metrics_port == 0  # off unless asked
    port = free_port()
    http = server_with(metrics_port=port)
    assert http.get("/metrics").status_code == 404
    scraped = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
    assert scraped.status_code == 200 and "codebreakers_rooms 0" in scraped.text
    assert scraped.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert httpx.get(f"http://127.0.0.1:{port}/", timeout=10).status_code == 404
