"""The server is game-agnostic: a whole Super Mastermind match between two browser tabs."""

from __future__ import annotations

from server_harness import Client, new_room
from starlette.testclient import TestClient

from codebreakers.games.mastermind.computer import computer_move


def test_two_players_play_a_mastermind_match(server: TestClient) -> None:
    code = new_room(server, game="mastermind", preset="classic")
    players = [Client(server, code), Client(server, code)]
    for client, name in zip(players, "AB", strict=True):
        client.join(name)
    assert all(p["team"] for p in players[1].room["players"])
    players[0].ok({"type": "start"})
    for client in players:
        client.drain_until_version(0)
    for _ in range(200):
        view = players[0].view
        assert view is not None
        if view["phase"] == "over":
            break
        mover = next(p for p in players if p.you == view["waiting_for"][0]["seat"])
        assert mover.view is not None
        action = computer_move(mover.view)
        assert action is not None
        ack = mover.ok({"type": "act", "action": action})
        for client in players:
            client.drain_until_version(ack["version"])
    assert players[1].view is not None and players[1].view["phase"] == "over"
    assert players[1].view["outcome"] is not None
