"""Bad input gets a structured error with a stable code, changes nothing, and harms nobody else."""

from __future__ import annotations

import json
import random
import string

import pytest
from server_harness import Client, Table, join_all, new_room, start_game
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from codebreakers.games.decrypto import REJECTION_CODES
from codebreakers.server.errors import ERROR_CODES
from codebreakers.server.ops.ipguard import OFF


def error_for(client: Client, frame: str | bytes) -> dict:
    if isinstance(frame, bytes):
        client.ws.send_bytes(frame)
    else:
        client.ws.send_text(frame)
    return client.expect("error")


@pytest.fixture
def room(server: TestClient) -> tuple[str, list[Client]]:
    code = new_room(server)
    return code, join_all(server, code)


def test_each_kind_of_bad_frame_has_its_code(server: TestClient, room) -> None:
    _, (host, *_) = room
    cases = {
        "{not json": "bad_json",
        "[1, 2]": "bad_message",
        '"hello"': "bad_message",
        '{"type": "dance", "id": "1"}': "unknown_type",
        '{"id": "1"}': "unknown_type",
        '{"type": "chat", "id": "1", "channel": "all"}': "bad_message",
        '{"type": "chat", "id": 7, "channel": "all", "text": "x"}': "bad_message",
        '{"type": "take_seat", "id": "1", "team": "white", "index": -1}': "bad_message",
        '{"type": "rename", "id": "1", "name": "x", "extra": true}': "bad_message",
        '{"type": "act", "id": "", "action": {}}': "bad_message",
        '{"type": "hello", "room": "ABCDEF"}': "hello_twice",
        "x" * (64 * 1024 + 1): "frame_too_large",
    }
    for frame, expected in cases.items():
        got = error_for(host, frame)
        assert got["code"] == expected, (frame[:60], got)
    assert error_for(host, b'{"type": "dance"}')["code"] == "unknown_type"
    named = error_for(host, '{"type": "chat", "id": "c-9", "channel": "all"}')
    assert named["id"] == "c-9"
    assert error_for(host, '{"type": "dance", "id": "d-1"}')["id"] == "d-1"
    assert host.request({"type": "chat", "channel": "all", "text": "still here"})["type"] == "ack"


def test_before_hello_and_unknown_rooms(server: TestClient) -> None:
    with server.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "join", "id": "1", "name": "x"}))
        assert json.loads(ws.receive_text())["code"] == "hello_first"
        ws.send_text(json.dumps({"type": "hello", "room": "ZZZZZZ"}))
        assert json.loads(ws.receive_text())["code"] == "room_not_found"
        ws.send_text(json.dumps({"type": "hello", "room": "0O1I"}))
        assert json.loads(ws.receive_text())["code"] == "room_not_found"


def test_a_socket_from_another_site_is_refused(server: TestClient, room) -> None:
    code, _ = room
    with server.websocket_connect("/ws", headers={"origin": "https://evil.example"}) as ws:
        frame = json.loads(ws.receive_text())
        assert frame == {
            "type": "error",
            "id": None,
            "code": "bad_origin",
            "detail": frame["detail"],
        }
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1008
    with server.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "hello", "room": code}))
        assert json.loads(ws.receive_text())["type"] == "welcome"


def test_nobody_acts_for_a_seat_without_its_token(server: TestClient, room) -> None:
    code, clients = room
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    anonymous = Client(server, code)
    act = {"type": "act", "action": {"type": "transmit", "clues": ["a", "b", "c"]}}
    assert anonymous.request(act)["code"] == "not_joined"
    assert anonymous.request({"type": "start"})["code"] == "not_joined"
    guesser = Client(server, code, token="not-a-token")
    assert guesser.you is None and guesser.request(act)["code"] == "not_joined"
    assert clients[0].version == 0


def test_flooding_a_socket_is_rate_limited(server_with) -> None:
    server = server_with(frame_burst=12.0, frames_per_s=0.01)
    host = Client(server, new_room(server))  # hello: one frame
    for i in range(20):
        host.send({"type": "rename", "id": f"flood-{i}", "name": f"N{i}"})
    answers = []
    while len(answers) < 20:
        frame = host.recv()
        if frame["type"] in ("ack", "error") and frame.get("id", "").startswith("flood-"):
            answers.append(frame.get("code", "ack"))
    assert answers == ["not_joined"] * 11 + ["rate_limited"] * 9


def test_a_player_on_many_tabs_shares_one_allowance(server_with) -> None:
    server = server_with(frame_burst=1000.0, player_frame_burst=12.0, player_frames_per_s=0.01)
    code = new_room(server)
    first = Client(server, code)
    first.join("Ann")  # sent before the socket had a player: not the player's
    tabs = [first] + [Client(server, code, token=first.token) for _ in range(3)]
    answers = [
        tab.request({"type": "rename", "name": f"A{i}"}).get("code", "ack")
        for i in range(5)
        for tab in tabs
    ]
    assert answers == ["ack"] * 12 + ["rate_limited"] * 8, str(answers)


FIELDS = {
    "hello": ["room", "token"],
    "join": ["id", "name"],
    "act": ["id", "action"],
    "chat": ["id", "channel", "text"],
    "move": ["id", "player", "team", "index"],
    "remove": ["id", "player"],
    "take_seat": ["id", "team", "index"],
    "add_bot": ["id", "team", "index", "level"],
    "set_options": ["id", "options"],
    "start": ["id"],
    "rematch": ["id"],
    "transfer_host": ["id", "player"],
}
PLAUSIBLE = {
    "id": ["a1", "b2", "c3"],
    "room": ["ABCDEF"],
    "token": ["x" * 32],
    "name": ["Mallory", ""],
    "channel": ["all", "team", "radio"],
    "text": ["hi", " ", "x" * 600],
    "player": ["p1", "p2", "p99"],
    "team": ["white", "black", "green"],
    "index": [0, 1, 3, 9],
    "level": ["easy", "godlike"],
    "options": [{"three_player": True}, {"words": "xx"}],
}


def random_action(rng: random.Random) -> dict:
    kind = rng.choice(["transmit", "lock", "propose", "note", "timeout", "draft", "x"])
    action: dict = {"type": kind}
    if rng.random() < 0.7:
        action["clues"] = rng.choice([["a", "b", "c"], ["a"], "abc", [1, 2, 3]])
    if rng.random() < 0.7:
        action["code"] = rng.choice([[1, 2, 3], [1, 1, 1], [5, 6, 7], "123"])
    if rng.random() < 0.7:
        action["target"] = rng.choice(["own", "enemy", None])
    return action


def random_frame(rng: random.Random, code: str) -> str | bytes:
    """A frame from a mix of garbage, near-misses of real messages and real messages."""
    roll = rng.random()
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    if roll < 0.2:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 80)))
    weird = [None, True, -1, 2**70, 1.5, "", "x" * 70, [], {}, [1, 2, 3]]
    kind = rng.choice([*FIELDS, "nope"])
    frame: dict = {"type": kind}
    for key in FIELDS.get(kind, ["id"]):
        if rng.random() < 0.05:
            continue  # a missing field
        if key == "action":
            frame[key] = random_action(rng)
        elif rng.random() < 0.1:
            frame[key] = rng.choice(weird)
        else:
            frame[key] = rng.choice(PLAUSIBLE[key])
    if kind == "hello":
        frame["room"] = code
    if rng.random() < 0.05:
        frame["surprise"] = 1
    return json.dumps(frame)


def test_fuzzed_frames_change_nothing_and_break_nothing(server_with) -> None:
    # Every tab is "testclient" here, and the fuzzer's tab a player: only the parse is tested.
    server = server_with(frame_burst=10_000.0, player_frame_burst=10_000.0, per_ip=OFF)
    code, _, table = start_game(server)
    fuzzer = Client(server, code)
    fuzzer.join("Fuzz")  # a spectator: nothing it may send changes the room or the game
    before = server.get(f"/api/rooms/{code}").json()
    rng = random.Random(20261129)
    known = ERROR_CODES | REJECTION_CODES
    seen: set[str] = set()
    for _ in range(400):
        frame = random_frame(rng, code)
        if isinstance(frame, bytes):
            fuzzer.ws.send_bytes(frame)
        else:
            fuzzer.ws.send_text(frame)
        while (got := fuzzer.recv())["type"] not in ("error", "ack"):
            pass
        seen.add(got.get("code", "ack"))
    assert seen <= known | {"ack"}, seen - known
    assert "internal_error" not in seen and len(seen) >= 8, seen
    after = server.get(f"/api/rooms/{code}").json()
    assert after["version"] == before["version"] and after["players"] == before["players"]
    assert fuzzer.version == 0
    table.play_out()  # the players carry on undisturbed
    assert table.any_view()["phase"] == "over"
