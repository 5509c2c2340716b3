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
