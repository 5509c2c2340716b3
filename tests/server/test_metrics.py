"""/metrics through prometheus-client: a registry per node, figures read from what the node
holds when scraped, store failures counted by operation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import prometheus_client
import pytest
from server_harness import Client, new_room
from starlette.testclient import TestClient

from codebreakers.bus.local import LocalBus
from codebreakers.server.ops.metrics import HeldCounts, Metrics


def test_each_node_counts_in_a_registry_of_its_own(server_with: Callable[..., TestClient]) -> None:
    first, second = server_with(), server_with()
    code = new_room(first)
    client = Client(first, code)
    client.join("Ann")
    nodes = [http.app.state.node for http in (first, second)]  # type: ignore[attr-defined]
    ones = [node.metrics.registry.get_sample_value for node in nodes]
    joins = {"type": "Join", "outcome": "ok"}
    assert [sample("codebreakers_messages_total", joins) for sample in ones] == [1, None]
    assert [sample("codebreakers_rooms") for sample in ones] == [1, 0]
    assert [sample("codebreakers_connections") for sample in ones] == [1, 0]
    # Nothing in the library's global registry, which every node in a process would share.
    global_names = {m.name for m in prometheus_client.REGISTRY.collect()}
    assert not any(name.startswith("codebreakers") for name in global_names)


def test_the_held_figures_are_read_at_each_scrape() -> None:
    now = [HeldCounts(connections=3, rooms=2, games_live=1)]
    metrics = Metrics(lambda: now[0], LocalBus())
    sample = metrics.registry.get_sample_value
    assert (sample("codebreakers_connections"), sample("codebreakers_games_live")) == (3, 1)
    now[0] = HeldCounts(connections=0, rooms=0, games_live=0)
    assert (sample("codebreakers_connections"), sample("codebreakers_rooms")) == (0, 0)
    assert sample("codebreakers_bus_healthy") == 1 and sample("codebreakers_bus_errors_total") == 0


def test_a_failing_store_call_is_counted_under_its_operation(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    node = server.app.state.node  # type: ignore[attr-defined]
    sample = node.metrics.registry.get_sample_value
    assert server.get("/api/rooms").status_code == 200
    assert sample("codebreakers_store_errors_total", {"op": "list_rooms"}) is None  # no series

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(node.ports.store.inner, "list_rooms", broken)
    monkeypatch.delattr(node.ports.store, "list_rooms", raising=False)  # instrumented again
    with pytest.raises(ConnectionError):  # the test client raises what the app raised
        server.get("/api/rooms")
    assert sample("codebreakers_store_errors_total", {"op": "list_rooms"}) == 1
    assert sample("codebreakers_store_seconds_count", {"op": "list_rooms"}) == 2
