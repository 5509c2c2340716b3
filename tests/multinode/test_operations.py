"""The operations surface in-process: /metrics after a few moves, JSON log lines, the health
check while draining, and a catch-up that finds what a lost notice would have said."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from multinode_helpers import parse_metrics
from real_server import free_port
from server_harness import OPEN, Client, Table, make_ports, new_room
from starlette.testclient import TestClient

from codebreakers.bus.local import LocalBus
from codebreakers.server.app import create_app
from codebreakers.server.cluster.shutdown import InFlight, drain
from codebreakers.server.ops import process
from codebreakers.server.ops.config import ServerConfig
from codebreakers.server.ops.logs import JsonFormatter
from codebreakers.server.ops.metrics import HeldCounts, Metrics


def test_metrics_count_messages_actions_and_sockets(tmp_path: Path) -> None:
    port = free_port()
    config = ServerConfig(metrics_port=port)
    with TestClient(create_app(make_ports(tmp_path / "m.db"), config)) as http:
        code = new_room(http)
        clients = [Client(http, code) for _ in range(4)]
        try:
            for client, name in zip(clients, "ABCD", strict=True):
                client.join(name)
            host = next(c for c in clients if c.you == c.room["host"])
            host.ok({"type": "start"})
            table = Table(clients)
            table.sync(0)
            table.step()
            table.step()
            refused = clients[0].request({"type": "act", "action": {"type": "nonsense"}})
            assert refused["type"] == "error"
            seen = parse_metrics(httpx.get(f"http://127.0.0.1:{port}/metrics").text)
        finally:
            for client in list(OPEN):
                client.close()
    assert seen["codebreakers_connections"] == 4
    assert seen["codebreakers_rooms"] == 1
    assert seen["codebreakers_games_live"] == 1
    assert seen['codebreakers_messages_total{type="Act",outcome="ok"}'] == 2
    assert seen['codebreakers_messages_total{type="Act",outcome="refused"}'] == 1
    assert seen['codebreakers_messages_total{type="Join",outcome="ok"}'] == 4
    assert seen['codebreakers_message_seconds_count{type="Act"}'] == 3
    assert seen['codebreakers_message_seconds_bucket{type="Act",le="+Inf"}'] == 3
    assert seen['codebreakers_actions_total{result="appended"}'] == 2
    assert seen['codebreakers_store_seconds_count{op="append_action"}'] == 2
    assert "codebreakers_store_errors_total" not in " ".join(seen)  # nothing failed
    assert seen["codebreakers_bus_healthy"] == 1
    # One node on the in-process bus: nobody else could hear a notice, so none is published
    # (nodes on Redis publish every change, or tests/server/test_two_nodes.py could not pass).
    assert seen["codebreakers_bus_published_total"] == 0


def test_metrics_show_the_collectors_passes(tmp_path: Path, monkeypatch) -> None:
    stats = process.CollectorStats()
    for generation, seconds in ((0, 0.02), (0, 0.03), (2, 0.5)):
        stats.record(generation, seconds)
    monkeypatch.setattr(process, "COLLECTOR", stats)
    port = free_port()
    with TestClient(create_app(make_ports(tmp_path / "m.db"), ServerConfig(metrics_port=port))):
        seen = parse_metrics(httpx.get(f"http://127.0.0.1:{port}/metrics").text)
    assert seen['codebreakers_gc_collections_total{generation="0"}'] == 2
    assert seen['codebreakers_gc_collections_total{generation="2"}'] == 1
    assert seen['codebreakers_gc_seconds_total{generation="0"}'] == pytest.approx(0.05)
    assert seen['codebreakers_gc_longest_seconds{generation="2"}'] == 0.5


def test_histogram_buckets_are_cumulative() -> None:
    metrics = Metrics(lambda: HeldCounts(0, 0, 0), LocalBus())
    for seconds in (0.0005, 0.003, 0.003, 7.0):
        metrics.handled("Act", "ok", seconds)
    seen = parse_metrics(metrics.render().decode())
    bucket = 'codebreakers_message_seconds_bucket{type="Act",le="%s"}'
    assert seen[bucket % "0.001"] == 1  # <= 1 ms
    assert seen[bucket % "0.005"] == 3  # <= 5 ms
    assert seen[bucket % "5.0"] == 3  # <= 5 s: the 7 s one only in +Inf (count)
    assert seen[bucket % "+Inf"] == 4
    count = seen['codebreakers_message_seconds_count{type="Act"}']
    assert count == 4 and seen['codebreakers_message_seconds_sum{type="Act"}'] == 7.0065


def test_json_log_lines_carry_fields_and_exceptions() -> None:
    record = logging.LogRecord(
        "codebreakers.x", logging.WARNING, __file__, 1, "room %s", ("K7",), None
    )
    record.room = "K7"
    try:
        raise ValueError("boom")
    except ValueError:
        record.exc_info = sys.exc_info()
    entry = json.loads(JsonFormatter().format(record))
    assert entry["level"] == "warning" and entry["logger"] == "codebreakers.x"
    assert entry["msg"] == "room K7" and entry["room"] == "K7"
    assert "ValueError: boom" in entry["exc"]
    assert entry["ts"].endswith("+00:00")


def test_health_check_turns_away_the_balancer_while_draining(tmp_path: Path) -> None:
    app = create_app(make_ports(tmp_path / "h.db"), ServerConfig())
    with TestClient(app) as http:
        assert http.get("/healthz").status_code == 200
        app.state.node.draining = True
        answer = http.get("/healthz")
    assert answer.status_code == 503 and answer.json() == {"status": "draining"}


def test_a_catch_up_reads_what_a_lost_notice_said(tmp_path: Path) -> None:
    """Two nodes whose buses don't reach each other (every notice lost): a catch-up pass on
    the second brings its sockets the first node's changes from the store."""
    db = tmp_path / "shared.db"
    first = TestClient(create_app(make_ports(db), ServerConfig()))
    second_app = create_app(make_ports(db), ServerConfig())  # each its own in-process bus
    second = TestClient(second_app)
    with first, second:
        code = new_room(first)
        here = Client(first, code)
        there = Client(second, code)
        try:
            here.join("A")
            assert len(there.room["players"]) == 0  # the notice never reached the second node
            node = second_app.state.node
            second.portal.call(node.catchup.all_rooms, "poll")  # what the poll loop does
            while len(there.room["players"]) < 1:
                there.recv()
            assert there.room["players"][0]["name"] == "A"
            here.ok({"type": "chat", "channel": "all", "text": "hello"})
            second.portal.call(node.catchup.all_rooms, "poll")
            while not there.chat:
                there.recv()
            assert there.chat[0]["text"] == "hello"
        finally:
            for client in list(OPEN):
                client.close()


def test_drain_stops_accepting_then_waits_for_messages_in_flight_before_bye() -> None:
    """The order of a graceful stop, with stand-ins for uvicorn's listener and the node."""
    events: list[str] = []

    class Listener:
        def close(self) -> None:
            events.append("stop accepting")

    class FakeNode:
        draining = False
        in_flight = InFlight()

        def say_goodbye(self, retry_ms: int) -> None:
            events.append(f"bye {retry_ms}")

    async def scenario() -> None:
        node = FakeNode()

        async def message() -> None:
            with node.in_flight.track():
                await asyncio.sleep(0.2)
                events.append("ack")

        handling = asyncio.create_task(message())
        await asyncio.sleep(0)
        server = SimpleNamespace(servers=[Listener()])
        await drain(server, node)  # type: ignore[arg-type]
        await handling
        assert node.draining

    asyncio.run(scenario())
    assert events == ["stop accepting", "ack", "bye 1000"]


def test_a_sweep_reads_one_head_per_current_room_and_catches_a_game_up(tmp_path: Path) -> None:
    """Rooms the node holds up to date cost one head read each; a game another node moved
    is read and pushed."""
    db = tmp_path / "sweep.db"
    first = TestClient(create_app(make_ports(db), ServerConfig(bot_delay_s=0)))
    second_app = create_app(make_ports(db), ServerConfig(bot_delay_s=0))
    second = TestClient(second_app)
    node = second_app.state.node

    def reads() -> dict[str, float]:
        return {
            sample.labels["op"]: sample.value
            for family in node.metrics.registry.collect()
            if family.name == "codebreakers_store_seconds"
            for sample in family.samples
            if sample.name.endswith("_count")
        }

    with first, second:
        quiet = [new_room(second) for _ in range(3)]
        watchers = [Client(second, code) for code in quiet]
        code = new_room(first)
        players = [Client(first, code) for _ in range(4)]
        for client, name in zip(players, "ABCD", strict=True):
            client.join(name)
        players[0].ok({"type": "start"})
        there = Client(second, code)  # loads the running game from the store
        try:
            before = reads()
            second.portal.call(node.catchup.all_rooms, "sweep")
            after = reads()
            assert after.get("room_head", 0) - before.get("room_head", 0) == 4
            assert {op: n - before.get(op, 0) for op, n in after.items() if op != "room_head"} == {
                op: 0 for op in after if op != "room_head"
            }
            table = Table(players)
            table.sync(0)
            table.step()  # an encryptor transmits on the first node only
            assert there.version == 0
            second.portal.call(node.catchup.all_rooms, "sweep")
            there.drain_until_version(1)
            assert all(w.room["code"] in quiet for w in watchers)
        finally:
            for client in list(OPEN):
                client.close()
