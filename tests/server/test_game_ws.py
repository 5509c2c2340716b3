"""Whole games through real WebSocket frames: seats, host powers, play, chat, rematch, record."""

from __future__ import annotations

from server_harness import Client, Table, join_all, new_room
from starlette.testclient import TestClient


def seated_table(server: TestClient, players: int = 4, **options: object) -> list[Client]:
    code = new_room(server, **options)
    return join_all(server, code, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:players])


def test_four_players_play_a_whole_game_and_a_rematch(server: TestClient) -> None:
    clients = seated_table(server)
    host = clients[0]
    assert host.request({"type": "start"})["type"] == "ack"
    table = Table(clients)
    table.sync(0)
    game_id = host.room["game_id"]
    view = clients[1].view
    assert view is not None and view["you"]["seat"] == clients[1].you
    table.play_out()
    for client in clients:
        while client.room["status"] != "over":
            client.recv()
        assert client.view is not None and client.view["phase"] == "over"
        assert client.view["outcome"]["winner"] == "black"
    assert host.room["status"] == "over"

    record = server.get(f"/api/games/{game_id}/record").json()
    assert record["complete"] is True and len(record["actions"]) == host.version

    keywords = {team: host.view["teams"][team]["keywords"] for team in ("white", "black")}
    seats = {team: host.view["teams"][team]["seats"] for team in keywords}
    host.ok({"type": "rematch"})
    for client in clients:
        while client.view is None or client.version != 0 or client.room["game_id"] == game_id:
            client.recv()
    assert host.room["games_played"] == 2 and host.room["status"] == "playing"
    assert host.room["teams"] == clients[1].room["teams"]
    assert {team: host.view["teams"][team]["seats"] for team in keywords} == seats
    mine = host.view["you"]["team"]
    assert host.view["teams"][mine]["keywords"] != keywords[mine]  # a new deal


def test_seat_changes_and_host_powers(server: TestClient) -> None:
    host, guest = seated_table(server, 2)
    assert host.room["host"] == host.you
    assert guest.request({"type": "start"})["code"] == "not_host"
    assert host.request({"type": "start"})["code"] == "teams_incomplete"
    assert guest.request({"type": "take_seat", "team": "white", "index": 0})["code"] == "seat_taken"
    guest.ok({"type": "take_seat", "team": "white", "index": 3})
    host.expect("room")
    assert host.room["teams"]["white"] == [host.you, None, None, guest.you]
    host.ok({"type": "move", "player": guest.you, "team": "white", "index": 0})  # swap
    assert host.room["teams"]["white"] == [guest.you, None, None, host.you]
    assert host.request({"type": "add_bot", "team": "black", "index": 0, "level": "x"})["code"] in {
        "bad_level",
        "bots_unavailable",
    }
    host.ok({"type": "set_options", "options": {"three_player": True}})
    assert host.room["team_sizes"] == {"white": [2, 2], "black": [1, 1]}
    bad = host.request({"type": "set_options", "options": {"colour": "red"}})
    assert bad["type"] == "error" and bad["code"] == "unknown_option"
    host.ok({"type": "transfer_host", "player": guest.you})
    assert host.request({"type": "set_public", "public": True})["code"] == "not_host"
    guest.ok({"type": "remove", "player": host.you})
    host.expect("room")
    assert host.room["players"] == [
        {
            "id": guest.you,
            "name": "Bob",
            "kind": "human",
            "level": None,
            "connected": True,
            "team": "white",
            "index": 0,
        }
    ]
    assert host.request({"type": "rename", "name": "Zed"})["code"] == "not_joined"
    stale = Client(server, host.room["code"], token=host.token)
    assert stale.you is None and stale.errors == ["bad_token"]


def test_late_joiners_watch_and_cannot_act(server: TestClient) -> None:
    clients = seated_table(server)
    clients[0].ok({"type": "start"})
    late = Client(server, clients[0].room["code"])
    assert late.view is not None and late.view["you"]["seat"] is None
    late.join("Late")
    assert late.room["status"] == "playing"
    me = next(p for p in late.room["players"] if p["id"] == late.you)
    assert me["team"] is None
    refused = late.request(
        {"type": "act", "action": {"type": "transmit", "clues": ["a", "b", "c"]}}
    )
    assert refused["code"] == "not_seated"


def test_actions_out_of_turn_get_the_engines_code(server: TestClient) -> None:
    clients = seated_table(server)
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    view = table.any_view()
    encryptors = {t["seat"] for t in view["waiting_for"]}
    member = next(c for c in clients if c.you not in encryptors)
    answer = member.request(
        {"type": "act", "action": {"type": "transmit", "clues": ["a", "b", "c"]}}
    )
    assert answer["type"] == "error" and answer["code"] == "not_encryptor"
    malformed = member.request({"type": "act", "action": {"type": "fly"}})
    assert malformed["code"] == "unknown_action"
    assert member.version == 0


def test_chat_channels_straight_face_and_limits(server: TestClient) -> None:
    clients = seated_table(server)
    by_team: dict[str, list[Client]] = {}
    for client in clients:
        team = next(p["team"] for p in client.room["players"] if p["id"] == client.you)
        by_team.setdefault(team, []).append(client)
    white, black = by_team["white"], by_team["black"]
    white[0].ok({"type": "chat", "channel": "team", "text": "white secret"})
    white[0].ok({"type": "chat", "channel": "all", "text": "hello all"})
    for client in clients:
        while not any(line["text"] == "hello all" for line in client.chat):
            client.recv()
    assert [line["text"] for line in black[0].chat] == ["hello all"]
    assert [line["text"] for line in white[1].chat] == ["white secret", "hello all"]
    assert white[1].chat[0]["channel"] == "team" and white[1].chat[0]["team"] == "white"
    assert white[0].request({"type": "chat", "channel": "all", "text": "x" * 501})["code"] == (
        "chat_too_long"
    )
    assert (
        white[0].request({"type": "chat", "channel": "all", "text": "  "})["code"] == "chat_empty"
    )
    codes = [
        white[0].request({"type": "chat", "channel": "all", "text": f"spam {i}"}).get("code")
        for i in range(8)
    ]
    assert "rate_limited" in codes

    white[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    table.step()  # the first encryptor transmits: it may not talk to its team now
    encryptor = next(
        c
        for c in clients
        if c.view
        and c.view["you"]["role"] == "encryptor"
        and c.view["rounds"][-1]["transmissions"][c.view["you"]["team"]]["clues"]
    )
    answer = encryptor.request({"type": "chat", "channel": "team", "text": "it's 1-2-3"})
    assert answer["code"] == "chat_not_allowed"


def test_a_retried_room_operation_is_applied_once(server: TestClient) -> None:
    host, _guest = seated_table(server, 2)
    host.send({"type": "rename", "id": "r-1", "name": "Ann2"})
    host.send({"type": "rename", "id": "r-1", "name": "Ann3"})
    acks = 0
    while acks < 2:
        frame = host.recv()
        acks += frame["type"] == "ack" and frame["id"] == "r-1"
    names = {p["id"]: p["name"] for p in host.room["players"]}
    assert names[host.you] == "Ann2"


def test_open_spectators_see_every_secret_and_read_team_chat(server: TestClient) -> None:
    clients = seated_table(server, open_spectators=True)
    clients[0].ok({"type": "start"})
    watcher = Client(server, clients[0].room["code"])
    watcher.join("Watcher")
    assert watcher.view is not None
    assert all(watcher.view["teams"][t]["keywords"] for t in ("white", "black"))
    assert watcher.request({"type": "chat", "channel": "team", "text": "psst"})["code"] == (
        "chat_not_allowed"
    )
    clients[0].ok({"type": "chat", "channel": "team", "text": "our plan"})
    while not watcher.chat:
        watcher.recv()
    assert watcher.chat[0]["text"] == "our plan" and watcher.chat[0]["channel"] == "team"
