"""A message whose id the store already holds is answered `ack` as applied, before any limit or
rule is looked at: the retry of a line or an action acknowledged before a restart (here: the
room forgotten by the node, so its ids are only in the store) is not refused."""

from __future__ import annotations

import pytest
from server_harness import Client, start_game
from starlette.testclient import TestClient


def forget(server: TestClient, code: str, clients: list[Client]) -> list[str]:
    """Close every tab and wait until the node drops the room, as a restart would."""
    tokens = [c.token for c in clients]
    for client in clients:
        client.close()
    node = server.app.state.node  # type: ignore[attr-defined]
    for _ in range(100):
        if code not in node.hubs:
            break
        server.get("/healthz")  # the last socket's cleanup runs in the app's loop
    assert code not in node.hubs
    return [t for t in tokens if t]


def test_a_stored_chat_line_retried_after_the_burst_is_spent_is_acknowledged(server) -> None:
    code, clients, _ = start_game(server)
    line = {"type": "chat", "id": "said-1", "channel": "all", "text": "hello once"}
    clients[0].ok(line)
    tokens = forget(server, code, clients)
    back = Client(server, code, token=tokens[0], chat_seq=0)
    for i in range(5):  # the new process's burst, spent
        back.ok({"type": "chat", "id": f"more-{i}", "channel": "all", "text": f"line {i}"})
    assert back.request({"type": "chat", "channel": "all", "text": "one more"})["code"] == (
        "rate_limited"
    )
    back.send(line)
    assert back.expect("ack")["id"] == "said-1"
    other = Client(server, code, token=tokens[1], chat_seq=0)
    assert [c["text"] for c in other.chat].count("hello once") == 1


@pytest.mark.parametrize("rematch", [False, True])
def test_a_stored_action_retried_after_the_game_ended_and_a_restart_is_acknowledged(
    server, rematch: bool
) -> None:
    """The ack of a game's last action lost and the node restarted (with `rematch`, after the
    host's rematch: the retry is the old game's action, stored there, and must not be judged in
    the new game)."""
    code, clients, table = start_game(server)
    table.play_out()
    assert table.last is not None
    client, frame = table.last
    final = client.version
    seat = clients.index(client)
    if rematch:
        old_game = clients[0].room["game_id"]
        clients[0].ok({"type": "rematch"})
        while clients[0].room["game_id"] == old_game:
            clients[0].recv()
    tokens = forget(server, code, clients)
    back = Client(server, code, token=tokens[seat])
    version = back.version
    back.send(frame)
    assert back.expect("ack") == {"type": "ack", "id": frame["id"], "version": final}
    assert back.version == version  # nothing was played in the game it holds
