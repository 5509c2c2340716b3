"""Two server nodes on one database and a Redis bus: players on either see the same game."""

from __future__ import annotations

import uuid

import pytest
from server_harness import OPEN, Client, Table, new_room
from starlette.testclient import TestClient

from codebreakers.bus.redis import RedisBus
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.app import create_app
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.store import open_store


@pytest.mark.redis
def test_a_game_split_across_two_nodes(redis_url: str, shared_db: str) -> None:
    db = shared_db
    channel = f"codebreakers-test:{uuid.uuid4().hex}"
    nodes = [
        TestClient(
            create_app(
                Ports(open_store(db), RedisBus(redis_url, channel=channel), RULES_BY_NAME),
                ServerConfig(bot_delay_s=0),
            )
        )
        for _ in range(2)
    ]
    for node in nodes:
        node.__enter__()
    try:
        code = new_room(nodes[0])
        clients = [Client(nodes[i % 2], code) for i in range(4)]
        for client, name in zip(clients, "ABCD", strict=True):
            client.join(name)
        for client in clients:
            while len(client.room["players"]) < 4:
                client.recv()
        # Racing room changes from both nodes: every one applied once, every tab converges.
        for n in range(5):
            for client in clients:
                client.send({"type": "rename", "id": f"r{n}", "name": f"{client.you}-{n}"})
        for client in clients:
            acked = 0
            while acked < 5:
                got = client.recv()
                assert got["type"] != "error", got
                acked += got["type"] == "ack"
        final = 1 + 4 + 4 * 5  # created, four joins, twenty renames
        for client in clients:
            while client.room["version"] < final:
                client.recv()
            assert {p["name"] for p in client.room["players"]} == {f"{c.you}-4" for c in clients}
        host = next(c for c in clients if c.you == c.room["host"])
        host.ok({"type": "start"})
        table = Table(clients)
        table.sync(0)
        clients[1].ok({"type": "chat", "channel": "all", "text": "from node 2"})
        while not clients[0].chat:
            clients[0].recv()
        assert clients[0].chat[0]["text"] == "from node 2"
        table.play_out()
        assert all(c.view and c.view["phase"] == "over" for c in clients)
    finally:
        for client in list(OPEN):
            client.close()
        for node in nodes:
            node.__exit__(None, None, None)
