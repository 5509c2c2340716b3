"""Two real nodes on one PostgreSQL and one Redis: a game split across them, its timer fired by
whichever node is first (once), then one node SIGKILLed mid-round and its players carried on
by the other, with no action lost or applied twice; then a graceful stop."""

from __future__ import annotations

import json
import time

import pytest
from multinode_helpers import learn_codes, metrics, split_table, stored_actions
from real_server import RealServer
from server_harness import OPEN, Client, Table


def transmissions_statuses(client: Client) -> set[str]:
    assert client.view is not None
    return {t["status"] for t in client.view["rounds"][-1]["transmissions"].values()}


@pytest.mark.slow
@pytest.mark.postgres
def test_split_game_survives_sigkill_of_one_node(nodes: list[RealServer]) -> None:
    a, b = nodes
    started = time.monotonic()
    code, clients = split_table(nodes, clue_limit_s=10)  # clients 0, 2 on a; 1, 3 on b
    game_id = clients[0].room["game_id"]
    table = Table(clients)
    assert table.step()["version"] == 1  # one encryptor transmits; the other dawdles

    # Both nodes hold the room and armed the clue timer: the timeout is stored once.
    for client in clients:
        while transmissions_statuses(client) != {"decoding"}:
            client.recv()
            assert time.monotonic() - started < 40
    assert {c.version for c in clients} == {2}
    learn_codes(table)
    table.step()  # a decoding lock, acknowledged by one node and seen on both
    table.step()

    # A burst of private notes from a player on b; b dies as soon as three are acknowledged.
    writer = clients[1]
    notes = [
        {"type": "act", "id": f"note-{i}", "action": {"type": "note", "number": i % 4 + 1}}
        for i in range(12)
    ]
    for frame in notes:
        frame["action"]["text"] = f"n{frame['id']}"
        writer.send(frame)
    acked: dict[str, int] = {}
    while len(acked) < 3:
        got = writer.recv()
        if got["type"] == "ack":
            acked[got["id"]] = got["version"]
    b.kill()
    for client in (clients[1], clients[3]):
        OPEN.remove(client)

    # b's players reconnect to a (any node: there are no sticky sessions) and resend everything.
    back = {
        i: Client(a, code, token=clients[i].token, game_id=game_id, game_version=0, chat_seq=0)  # type: ignore[arg-type]
        for i in (1, 3)
    }
    assert [back[i].you for i in (1, 3)] == [clients[1].you, clients[3].you]
    for frame in notes:
        back[1].send(frame)
    again: dict[str, int] = {}
    while len(again) < len(notes):
        got = back[1].recv()
        assert got["type"] != "error", got
        if got["type"] == "ack":
            again[got["id"]] = got["version"]
    assert all(again[i] == v for i, v in acked.items())  # acknowledged before: same version
    assert len(set(again.values())) == len(notes)
    players = [clients[0], back[1], clients[2], back[3]]
    table = _carry(table, players)
    table.sync(max(again.values()))
    table.play_out()
    assert all(c.view and c.view["phase"] == "over" for c in players)
    final = players[0].version

    # The log: every version once, every note once, one timeout, nothing else lost or doubled.
    rows = stored_actions(a.url, game_id)
    assert [r["version"] for r in rows] == list(range(1, final + 1))
    ids = [r["client_action_id"] for r in rows if r["client_action_id"] is not None]
    assert len(ids) == len(set(ids))
    assert sorted(i for i in ids if i.startswith("note-")) == sorted(again)
    assert sum(json.loads(r["action"])["type"] == "timeout" for r in rows) == 1
    seen = metrics(a)
    assert seen['codebreakers_actions_total{result="appended"}'] >= 1
    assert seen["codebreakers_bus_healthy"] == 1

    # A graceful stop: the health check turns away the balancer, every tab is told to reconnect.
    assert a.process is not None
    a.process.terminate()
    for client in players:
        assert client.expect("bye")["reason"] == "shutdown"
    a.process.wait(20)

    # Structured logs, and never a seat token in them.
    tokens = [c.token for c in clients]
    for node in nodes:
        text = node.log.read_text()
        assert "node started" in text and "/healthz" in text  # ours and uvicorn's lines
        assert not any(token and token in text for token in tokens)
        for line in text.splitlines():
            if line.startswith("Codebreakers is ready: open "):
                continue  # the one plain line, on stdout (this file holds both streams)
            entry = json.loads(line)
            assert {"ts", "level", "logger", "msg"} <= entry.keys(), line
    assert time.monotonic() - started < 60


def _carry(old: Table, players: list[Client]) -> Table:
    """A table over the reconnected clients that remembers the codes seen so far."""
    table = Table(players)
    table.codes = dict(old.codes)
    table.clue_count = old.clue_count
    return table
