"""`/healthz` is liveness, `/readyz` readiness: the store answering, the shared bus subscribed,
the node not draining, each named in the body."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from types import SimpleNamespace

from codebreakers.server.http import readiness


def test_ready_on_sqlite_with_the_local_bus(server) -> None:
    answer = server.get("/readyz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ready", "store": "ok", "bus": "local", "draining": "no"}


def test_a_failing_store_is_not_ready_while_the_process_is_alive(server, monkeypatch) -> None:
    node = server.app.state.node

    async def down(*args, **kwargs):
        raise OSError("connection refused")

    monkeypatch.setattr(node.ports.store.inner, "room_head", down)
    answer = server.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["status"] == "not_ready" and answer.json()["store"] == "error"
    assert server.get("/healthz").status_code == 200  # alive: no reason to restart it


def test_a_store_that_hangs_is_not_ready_within_the_timeout(server, monkeypatch) -> None:
    node = server.app.state.node

    async def stuck(*args, **kwargs):
        await asyncio.sleep(30)

    monkeypatch.setattr(node.ports.store.inner, "room_head", stuck)
    monkeypatch.setattr(readiness, "READY_TIMEOUT_S", 0.3)
    started = time.monotonic()
    answer = server.get("/readyz")
    assert answer.status_code == 503 and answer.json()["store"] == "timeout"
    assert time.monotonic() - started < 5


def test_a_shared_bus_that_lost_redis_is_not_ready(server, monkeypatch) -> None:
    node = server.app.state.node
    lost = SimpleNamespace(shared=True, healthy=False)
    monkeypatch.setattr(node, "ports", replace(node.ports, bus=lost))
    answer = server.get("/readyz")
    assert answer.status_code == 503 and answer.json()["bus"] == "disconnected"
    monkeypatch.setattr(
        node, "ports", replace(node.ports, bus=SimpleNamespace(shared=True, healthy=True))
    )
    assert server.get("/readyz").json()["bus"] == "ok"


def test_a_draining_node_is_not_ready(server, monkeypatch) -> None:
    node = server.app.state.node
    monkeypatch.setattr(node, "draining", True)
    assert server.get("/readyz").status_code == 503
    assert server.get("/readyz").json()["draining"] == "yes"
