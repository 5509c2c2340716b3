"""The server is game-agnostic: a whole Super Mastermind match between two browser tabs."""

from __future__ import annotations

import threading

from server_harness import Client, new_room
from starlette.testclient import TestClient

from codebreakers.games.mastermind import compare
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


def test_the_solver_comparison_is_built_off_the_event_loop(server: TestClient, monkeypatch) -> None:
    """After each round the views carry the solver's comparison (tenths of a second at 5 x 8):
    it is computed in a worker thread, never on the loop every room shares."""
    loop_thread = threading.get_ident()
    threads: list[int] = []
    original = compare._compare

    def spy(*args: object) -> object:
        threads.append(threading.get_ident())
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(compare, "_compare", spy)
    code = new_room(server, game="mastermind", preset="classic")
    players = [Client(server, code), Client(server, code)]
    for client, name in zip(players, "AB", strict=True):
        client.join(name)
    players[0].ok({"type": "start"})
    for client in players:
        client.drain_until_version(0)
    while not players[0].view["history"]:  # type: ignore[index]
        view = players[0].view
        mover = next(p for p in players if p.you == view["waiting_for"][0]["seat"])
        action = computer_move(mover.view)  # type: ignore[arg-type]
        ack = mover.ok({"type": "act", "action": action})
        for client in players:
            client.drain_until_version(ack["version"])
    assert players[0].view["history"][0]["comparison"]  # type: ignore[index]
    assert threads and loop_thread not in threads
    portal_thread = server.portal.call(threading.get_ident)  # the app's own event loop
    assert portal_thread not in threads
