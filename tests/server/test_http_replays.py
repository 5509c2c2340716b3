"""Replays over HTTP: refused while the game runs, each viewpoint's secrets kept on the bytes,
uploaded records checked (bad ones refused with a stable code, nothing stored)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_harness import Client, start_game
from starlette.testclient import TestClient

from codebreakers.server.http import replays


def play_to_the_end(server: TestClient) -> tuple[str, list[Client], dict[str, list[str]]]:
    """A finished game with chat in both channels; its id, the tabs and each team's keywords."""
    _, clients, table = start_game(server)
    by_team: dict[str, list[Client]] = {}
    for client in clients:
        assert client.view is not None
        by_team.setdefault(client.view["you"]["team"], []).append(client)
    by_team["white"][0].ok({"type": "chat", "channel": "team", "text": "white team plan"})
    by_team["black"][0].ok({"type": "chat", "channel": "all", "text": "good luck all"})
    game_id = clients[0].room["game_id"]
    assert server.get(f"/api/games/{game_id}/replay").json()["error"]["code"] == "game_not_over"
    table.play_out()
    view = clients[0].view
    assert view is not None and view["phase"] == "over"
    words = {team: view["teams"][team]["keywords"] for team in ("white", "black")}
    return game_id, clients, words


def test_a_running_game_is_refused_and_a_finished_one_replayed(server: TestClient) -> None:
    _, clients, table = start_game(server)
    game_id = clients[0].room["game_id"]
    url = f"/api/games/{game_id}/replay"
    for viewpoint in ("", "?as=all", f"?as={clients[0].you}"):
        refused = server.get(url + viewpoint)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "game_not_over"
        # the token of a seat changes nothing: no replay before the end
        with_token = server.get(url + viewpoint, headers={"x-seat-token": clients[0].token or ""})
        assert with_token.status_code == 409
    table.play_out()
    replay = server.get(url + f"?as={clients[0].you}").json()
    assert replay["game"] == "decrypto" and replay["game_id"] == game_id
    assert replay["viewpoint"] == clients[0].you
    assert replay["actions"] == clients[0].version
    assert replay["steps"][0]["actions"] == 0
    assert json.loads(json.dumps(replay["steps"][-1]["view"])) == clients[0].view
    assert {s["name"] for s in replay["seats"]} == {"A", "B", "C", "D"}
    assert replay["viewpoints"][-2:] == ["spectator", "all"]
    assert server.get("/api/games/nope/replay").json()["error"]["code"] == "game_not_found"


def test_each_viewpoint_sees_only_its_own_secrets_on_the_bytes(server: TestClient) -> None:
    game_id, clients, words = play_to_the_end(server)
    teams = {c.you: c.view["you"]["team"] for c in clients if c.view}
    url = f"/api/games/{game_id}/replay"
    for viewpoint in [*teams, "spectator"]:
        body = server.get(url, params={"as": viewpoint}, headers={"accept-encoding": "identity"})
        assert body.status_code == 200 and "content-encoding" not in body.headers
        steps = json.loads(body.content)["steps"]
        hidden = [team for team in words if teams.get(viewpoint) != team]
        for step in steps[:-1]:
            raw = json.dumps(step["view"], ensure_ascii=False)
            for team in hidden:
                assert not any(f'"{word}"' in raw for word in words[team]), (viewpoint, team)
        for team in words:  # the end shows every keyword to everyone
            last = json.dumps(steps[-1]["view"], ensure_ascii=False)
            assert all(f'"{w}"' in last for w in words[team])
        # team chat stays with its team: a replay is public once the game is over
        assert b"white team plan" not in body.content
        assert b"good luck all" in body.content
        assert not any(c.token and c.token.encode() in body.content for c in clients)


def test_the_replay_is_gzipped_for_browsers(server: TestClient) -> None:
    game_id, _, _ = play_to_the_end(server)
    url = f"/api/games/{game_id}/replay?as=all"
    plain = server.get(url, headers={"accept-encoding": "identity"}).content
    zipped = server.get(url, headers={"accept-encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) * 5 < len(plain)  # views repeat themselves
    assert zipped.content == plain  # the test client undoes the encoding: the same document


def test_an_unknown_viewpoint_is_refused(server: TestClient) -> None:
    game_id, _, _ = play_to_the_end(server)
    for viewpoint in ("nobody", "system", "x" * 5000):
        refused = server.get(f"/api/games/{game_id}/replay", params={"as": viewpoint})
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "bad_viewpoint"


def record_of(server: TestClient, game_id: str) -> dict[str, Any]:
    record: dict[str, Any] = server.get(f"/api/games/{game_id}/record").json()
    return record


def test_an_uploaded_record_replays_as_the_stored_game(server: TestClient) -> None:
    game_id, clients, _ = play_to_the_end(server)
    record = record_of(server, game_id)
    for viewpoint in (clients[1].you, "spectator"):
        stored = server.get(f"/api/games/{game_id}/replay", params={"as": viewpoint}).json()
        uploaded = server.post("/api/replay", params={"as": viewpoint}, json=record).json()
        assert uploaded["game_id"] is None
        assert uploaded["steps"] == stored["steps"]
        assert uploaded["viewpoints"] == stored["viewpoints"]


def test_a_record_of_a_running_game_is_refused(server: TestClient) -> None:
    _, clients, table = start_game(server)
    game_id = clients[0].room["game_id"]
    table.step()
    partial = server.get(
        f"/api/games/{game_id}/record", headers={"x-seat-token": clients[0].token or ""}
    ).json()
    assert partial["complete"] is False
    refused = server.post("/api/replay", json=partial)
    assert refused.json()["error"]["code"] == "record_partial"


def mangled(record: dict[str, Any], how: str) -> object:
    doc = json.loads(json.dumps(record))
    if how == "not_over":
        doc["actions"] = doc["actions"][:-1]
    elif how == "bad_action":
        doc["actions"][2]["action"] = {"type": "fly"}
    elif how == "wrong_seat":
        doc["actions"][0]["seat"] = "intruder"
    elif how == "bad_format":
        doc["format"] = "something-else"
    elif how == "unknown_game":
        doc["game"] = "chess"
    elif how == "bad_chat":
        doc["chat"] = [{"channel": "all", "text": {"b": 1}, "seat": None, "at": 1}]
    elif how == "bad_teams":
        doc["setup"]["teams"] = ["w", "b"]
    elif how == "not_an_object":
        return [doc]
    return doc


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("not_over", "game_not_over"),
        ("bad_action", "bad_record"),
        ("wrong_seat", "bad_record"),
        ("bad_format", "bad_record"),
        ("unknown_game", "bad_record"),
        ("bad_chat", "bad_record"),
        ("bad_teams", "bad_record"),
        ("not_an_object", "bad_record"),
    ],
)
def test_malformed_uploads_are_refused_with_a_stable_code(
    server: TestClient, how: str, code: str
) -> None:
    game_id, _, _ = play_to_the_end(server)
    record = record_of(server, game_id)
    before = server.get("/api/rooms").json()
    refused = server.post("/api/replay", json=mangled(record, how))
    assert refused.json()["error"]["code"] == code, refused.text
    assert server.get("/api/rooms").json() == before  # nothing stored, nothing changed


def test_upload_bounds(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def post(body: bytes) -> Any:
        headers = {"content-type": "application/json"}
        return server.post("/api/replay", content=body, headers=headers)

    assert post(b"{not json").json()["error"]["code"] == "bad_json"
    assert post(b"[" * 100_000 + b"]" * 100_000).json()["error"]["code"] == "bad_json"
    monkeypatch.setattr(replays, "MAX_RECORD_BYTES", 1000)
    big = post(b" " * 2000)
    assert big.status_code == 413 and big.json()["error"]["code"] == "frame_too_large"


def test_too_many_actions_are_refused(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _, _ = play_to_the_end(server)
    record = record_of(server, game_id)
    from codebreakers.games import replays as engine

    monkeypatch.setattr(engine, "MAX_ACTIONS", len(record["actions"]) - 1)
    refused = server.post("/api/replay", json=record)
    assert refused.status_code == 413 and refused.json()["error"]["code"] == "replay_too_long"


def test_the_replay_pages_are_the_client(server: TestClient) -> None:
    home = server.get("/").text
    for path in ("/g/AbC123xyz", "/g/AbC123xyz?as=p1&step=3", "/replay"):
        page = server.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert page.text == home
