"""Reconnecting: the seat comes back by token, missed views and chat arrive, no action twice."""

from __future__ import annotations

from server_harness import Client, new_room, start_game
from starlette.testclient import TestClient


def test_a_tab_that_missed_changes_gets_a_fresh_view_and_the_chat_it_missed(
    server: TestClient,
) -> None:
    code, clients, table = start_game(server)
    gone = clients[3]
    clients[0].ok({"type": "chat", "channel": "all", "text": "before"})
    gone.drain_until_version(0)
    while not gone.chat:
        gone.recv()
    seen_seq, seen_version, game_id = gone.chat[-1]["seq"], gone.version, gone.room["game_id"]
    token, me = gone.token, gone.you
    gone.close()
    del table.by_seat[me]

    table.step()
    # Two who may talk (the encryptor that just transmitted may not, in any channel).
    talking = [c for c in clients[:3] if c.view and c.view["you"]["can_team_chat"]]
    talking[0].ok({"type": "chat", "channel": "all", "text": "while you were out"})
    talking[1].ok({"type": "chat", "channel": "all", "text": "and this"})
    latest = clients[0].version

    back = Client(
        server, code, token=token, game_id=game_id, game_version=seen_version, chat_seq=seen_seq
    )
    assert back.you == me
    assert back.version == latest and back.view is not None and back.view["you"]["seat"] == me
    assert [line["text"] for line in back.chat] == ["while you were out", "and this"]
    mine = next(p for p in back.room["players"] if p["id"] == me)
    assert mine["connected"] is True


def test_a_client_already_up_to_date_gets_no_view_again(server: TestClient) -> None:
    code, clients, _ = start_game(server)
    first = clients[2]
    again = Client(
        server,
        code,
        token=first.token,
        game_id=first.room["game_id"],
        game_version=first.version,
        chat_seq=0,
    )
    assert again.you == first.you and again.view is None
    assert not any('"type":"view"' in raw for raw in again.raw)


def test_a_retried_action_is_acknowledged_but_applied_once(server: TestClient) -> None:
    code, _, table = start_game(server)
    view = table.any_view()
    encryptor = table.by_seat[view["waiting_for"][0]["seat"]]
    # A chat line (said before transmitting: then the encryptor is muted) and an action, each
    # retried with its id from a new tab, are applied once.
    line = {"type": "chat", "id": "hi-1", "channel": "all", "text": "hi"}
    encryptor.send(line)
    encryptor.expect("ack")
    frame = {
        "type": "act",
        "id": "transmit-once",
        "action": {"type": "transmit", "clues": ["zqa", "zqb", "zqc"]},
    }
    encryptor.send(frame)
    first = encryptor.expect("ack")
    assert first["version"] == 1
    token = encryptor.token
    encryptor.close()

    again = Client(server, code, token=token)  # a new tab, after a lost connection
    again.send(frame)
    second = again.expect("ack")
    assert second == {"type": "ack", "id": "transmit-once", "version": 1}
    assert again.version == 1
    again.send(line)
    again.send(line)
    acks = 0
    while acks < 2:
        got = again.recv()
        acks += got["type"] == "ack"
    record_lines = [line for line in again.chat if line["text"] == "hi"]
    assert len(record_lines) == 1


def test_a_token_from_another_room_or_a_forged_one_reattaches_nothing(
    server: TestClient,
) -> None:
    _, clients, _ = start_game(server)
    other = new_room(server)
    stranger = Client(server, other, token=clients[0].token)
    assert stranger.you is None and stranger.errors == ["bad_token"]
    forged = Client(server, clients[0].room["code"], token="A" * 32)
    assert forged.you is None and forged.errors == ["bad_token"]


def test_an_idle_room_is_forgotten_and_reloaded_from_the_store(server: TestClient) -> None:
    code, clients, table = start_game(server)
    table.step()
    tokens = [c.token for c in clients]
    version = clients[0].version
    for client in clients:
        client.close()
    node = server.app.state.node  # type: ignore[attr-defined]
    deadline = 100
    while code in node.hubs and deadline:  # the last socket's cleanup runs in the app's loop
        server.get("/healthz")
        deadline -= 1
    assert code not in node.hubs
    back = [Client(server, code, token=token) for token in tokens]
    assert [c.you for c in back] == [c.you for c in clients]
    assert all(c.version == version for c in back)


def test_a_chat_line_retried_after_the_room_was_reloaded_is_stored_once(
    server: TestClient,
) -> None:
    code, clients, _ = start_game(server)
    line = {"type": "chat", "id": "hello-1", "channel": "all", "text": "hello once"}
    clients[0].ok(line)
    tokens = [c.token for c in clients]
    for client in clients:
        client.close()
    node = server.app.state.node  # type: ignore[attr-defined]
    deadline = 100
    while code in node.hubs and deadline:  # forgotten, as after a restart: ids only in the store
        server.get("/healthz")
        deadline -= 1
    assert code not in node.hubs
    back = Client(server, code, token=tokens[0], chat_seq=0)
    back.ok(line)
    other = Client(server, code, token=tokens[1], chat_seq=0)
    assert [c["text"] for c in other.chat].count("hello once") == 1


def test_the_action_that_ended_the_game_can_be_retried(server: TestClient) -> None:
    _, clients, table = start_game(server)
    table.play_out()
    assert table.last is not None
    client, frame = table.last
    final = client.version
    client.send(frame)
    assert client.expect("ack") == {"type": "ack", "id": frame["id"], "version": final}
    old_game = client.room["game_id"]
    clients[0].ok({"type": "rematch"})
    while client.room["game_id"] == old_game or client.version != 0:
        client.recv()
    client.send(frame)  # still the old game's action: acknowledged, not played in the new one
    assert client.expect("ack") == {"type": "ack", "id": frame["id"], "version": final}
    assert client.version == 0  # a view of a new version would have come before the ack
