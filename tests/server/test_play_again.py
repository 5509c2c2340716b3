"""An agreed rematch (`play_again`): proposed by one player, joined by each; the new game starts
once every seated human is ready (bots always are); a player who leaves the seats watches it."""

from __future__ import annotations

from server_harness import Client, Table, start_game
from starlette.testclient import TestClient


def finished(server: TestClient) -> tuple[list[Client], str]:
    _code, clients, table = start_game(server)
    table.play_out()
    for client in clients:
        while client.room["status"] != "over":
            client.recv()
    return clients, clients[0].room["game_id"]


def test_the_rematch_waits_for_every_seated_player(server: TestClient) -> None:
    clients, old = finished(server)
    ann, bob, cid, dee = clients
    assert bob.request({"type": "play_again"})["type"] == "ack"  # anyone may propose
    ann.expect("room")
    assert ann.room["status"] == "over" and ann.room["rematch"] == [bob.you]
    for client in (ann, cid):
        client.ok({"type": "play_again"})
    assert dee.room["status"] == "over" and dee.room["game_id"] == old
    dee.ok({"type": "play_again"})
    for client in clients:
        while client.room["game_id"] == old or client.version != 0:
            client.recv()
        assert client.room["status"] == "playing" and client.room["rematch"] == []
    Table(clients).sync(0)


def test_who_leaves_the_seats_watches_and_a_bot_can_take_the_place(server_with) -> None:
    from test_quickplay import BOTS

    server = server_with(ports=BOTS)
    clients, old = finished(server)
    ann, bob, cid, dee = clients
    for client in (ann, bob, cid):
        client.ok({"type": "play_again"})
    seat = next((t, s.index(dee.you)) for t, s in ann.room["teams"].items() if dee.you in s)
    dee.ok({"type": "leave_seat"})  # to spectate (or before going home)
    assert dee.room["status"] == "over"  # a team of one can't start
    assert dee.request({"type": "play_again"})["code"] == "not_seated"
    ann.ok({"type": "add_bot", "team": seat[0], "index": seat[1], "level": "easy"})
    while ann.room["game_id"] == old:
        ann.recv()
    assert ann.room["status"] == "playing"
    assert dee.you not in ann.room["teams"][seat[0]]
    while dee.room["game_id"] == old:
        dee.recv()
    assert dee.room["status"] == "playing"


def test_play_again_only_after_a_game(server: TestClient) -> None:
    _code, clients, _table = start_game(server)
    assert clients[0].request({"type": "play_again"})["code"] == "game_not_over"
