"""Secrets never leave the server to the wrong socket: checked on the raw frames sent."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from server_harness import Client, Table, new_room
from starlette.testclient import TestClient


def transmissions(frame: Any) -> list[dict[str, Any]]:
    """Every transmission object anywhere in a frame."""
    found = []
    stack = [frame]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "encryptor" in item and "code" in item and "status" in item:
                found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def test_no_socket_gets_the_other_teams_keywords_or_an_unrevealed_code(
    server: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="codebreakers")
    code = new_room(server)
    players = [Client(server, code) for _ in range(4)]
    for client, name in zip(players, "ABCD", strict=True):
        client.join(name)
    watcher = Client(server, code)  # never joins
    players[0].ok({"type": "start"})
    spectator = Client(server, code)
    spectator.join("Spec")  # a late joiner: a spectator
    table = Table(players)
    table.sync(0)
    keywords = {}
    team_of = {}
    for client in players:
        assert client.view is not None
        team = client.view["you"]["team"]
        team_of[client.you] = team
        keywords[team] = client.view["teams"][team]["keywords"]
    assert len(keywords) == 2 and all(len(k) == 4 for k in keywords.values())

    while table.any_view()["phase"] != "over":
        table.step()
    for client in (watcher, spectator):
        client.drain_until_version(players[0].version)

    sockets = [*players, watcher, spectator]
    for client in sockets:
        mine = team_of.get(client.you)
        for raw in client.raw:
            frame = json.loads(raw)
            over = frame["type"] == "view" and frame["view"]["phase"] == "over"
            assert '"seed"' not in raw
            if over:
                continue  # once the game is over every secret is public
            for team, words in keywords.items():
                if team != mine:
                    for word in words:
                        assert json.dumps(word, ensure_ascii=False) not in raw, (client.you, word)
            for t in transmissions(frame):
                if t["code"] is not None:
                    assert t["status"] == "revealed" or t["encryptor"] == client.you, (
                        client.you,
                        t,
                    )
    tokens = {c.you: c.token for c in [*players, spectator]}
    for client in sockets:
        for owner, token in tokens.items():
            if owner != client.you:
                assert all(token not in raw for raw in client.raw)
    for owner, token in tokens.items():
        assert token not in caplog.text
        seen = [raw for raw in players[0].raw if token in raw] if owner == players[0].you else []
        assert len(seen) <= 1  # only the `joined` frame carries a token to its owner


def _sent_words(raw: str, words: list[str]) -> list[str]:
    return [word for word in words if json.dumps(word) in raw]


def _catch_up(client: Client, version: int) -> None:
    while client.room["version"] < version:
        client.expect("room")


def test_only_the_host_gets_the_custom_word_list(server: TestClient) -> None:
    """The list holds both teams' keywords: every room frame, the room route and the public
    listing carry its size only, except the host's own room frames (which it edits)."""
    first = [f"zebra{i:02d}" for i in range(24)]
    second = [f"quokka{i:02d}" for i in range(30)]
    code = new_room(server, words="custom", custom_words=first)
    host, other = Client(server, code), Client(server, code)
    host.join("Host")
    other.join("Other")
    watcher = Client(server, code)  # never joins
    host.ok({"type": "set_public", "public": True})
    options = {**host.room["options"], "custom_words": second}
    host.ok({"type": "set_options", "options": options})
    _catch_up(other, host.room["version"])
    _catch_up(watcher, host.room["version"])
    assert other.room["options"]["custom_words"] is None
    assert other.room["options"]["custom_word_count"] == 30
    assert host.room["options"]["custom_words"] == second
    for client in (other, watcher):
        for raw in client.raw:
            assert not _sent_words(raw, first + second), raw
    listed = server.get("/api/rooms").text
    assert code in listed and not _sent_words(listed, first + second)
    room = server.get(f"/api/rooms/{code}").json()
    assert room["options"]["custom_word_count"] == 30
    assert not _sent_words(json.dumps(room), first + second)

    host.ok({"type": "transfer_host", "player": other.you})
    _catch_up(other, host.room["version"])
    assert other.room["options"]["custom_words"] == second  # the new host edits the list

    for name in ("C", "D"):
        Client(server, code).join(name)
    other.ok({"type": "start"})  # the room frames of a change come before its ack
    assert other.room["status"] == "playing"  # during a game the list sits beside the keywords:
    assert other.room["options"]["custom_words"] is None  # not even the host gets it then
    assert host.room["options"]["custom_words"] is None
