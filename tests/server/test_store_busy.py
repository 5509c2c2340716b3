"""An overloaded database (no connection free in time) is `busy`, not a server failure: the
client gets a code it can translate and retry on, and nothing changes. Bots and timers try
again, after `busy` and after a store that failed outright (a database restarting)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from server_harness import (
    SCRIPTED_BOTS,
    Client,
    Clock,
    host_watching_four_bots,
    new_room,
    poke_timers,
    start_game,
    watch_until_over,
)
from starlette.testclient import TestClient

from codebreakers.server.errors import Refused
from codebreakers.server.play import retry
from codebreakers.server.rooms.hub import RoomHub
from codebreakers.store.base import StoreBusy


class Overloaded:
    """Makes the store's calls named `names` raise StoreBusy while `on`, or for the next
    `times` calls: the store itself (under the node's instrumented face, which only counts it),
    as the PostgreSQL adapter does when no pooled connection frees up in time."""

    def __init__(
        self,
        store: Any,
        monkeypatch: pytest.MonkeyPatch,
        names: tuple[str, ...] = ("update_room", "create_room"),
        error: type[Exception] = StoreBusy,
    ) -> None:
        self.error = error
        self.on = False
        self.times = 0
        self.refused = 0
        for name in names:
            real = getattr(store.inner, name)
            monkeypatch.setattr(store.inner, name, self._guard(real))
            monkeypatch.delattr(store, name, raising=False)  # instrumented again, around the guard

    def _guard(self, real: Any) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.on or self.times > 0:
                self.times -= 1
                self.refused += 1
                raise self.error("QueuePool limit reached or connection lost")
            return await real(*args, **kwargs)

        return call


def test_busy_store_refuses_with_busy_and_changes_nothing(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = server.app.state.node.ports.store  # type: ignore[attr-defined]
    overloaded = Overloaded(store, monkeypatch)
    code = new_room(server)
    client = Client(server, code)
    overloaded.on = True
    refused = client.request({"type": "join", "name": "Ann"})
    assert (refused["type"], refused["code"]) == ("error", "busy")
    answer = server.post("/api/rooms", json={"game": "decrypto", "options": {}})
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "busy"
    assert server.get(f"/api/rooms/{code}").json()["players"] == []
    overloaded.on = False
    client.join("Ann")  # the same request, again, once the database keeps up
    assert len(server.get(f"/api/rooms/{code}").json()["players"]) == 1


@pytest.mark.parametrize("error", [StoreBusy, ConnectionError], ids=["busy", "failed"])
def test_bots_try_again_when_the_store_is_busy_or_fails(
    server_with, monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    monkeypatch.setattr(retry, "BUSY_RETRY_S", 0.01)
    server: TestClient = server_with(ports=SCRIPTED_BOTS)
    store = server.app.state.node.ports.store  # type: ignore[attr-defined]
    overloaded = Overloaded(store, monkeypatch, ("append_action",), error)
    host = host_watching_four_bots(server)
    overloaded.times = 3  # the bots' first three moves meet a busy store
    host.ok({"type": "start"})
    watch_until_over(host)
    assert overloaded.refused == 3


@pytest.mark.parametrize("error", [StoreBusy, ConnectionError], ids=["busy", "failed"])
def test_a_timeout_is_tried_again_when_the_store_is_busy_or_fails(
    server_with, monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    monkeypatch.setattr(retry, "BUSY_RETRY_S", 0.01)
    clock = Clock()
    server = server_with(ports={"clock": clock})
    code, _, table = start_game(server, clue_limit_s=60)
    store = server.app.state.node.ports.store  # type: ignore[attr-defined]
    overloaded = Overloaded(store, monkeypatch, ("append_action",), error)
    overloaded.times = 2
    clock.now += 61
    poke_timers(server, code)
    table.sync(1)  # the timeout, applied on the third try
    statuses = {t: x["status"] for t, x in table.any_view()["rounds"][-1]["transmissions"].items()}
    assert statuses == {"white": "decoding", "black": "decoding"}
    assert overloaded.refused == 2


def test_bots_try_again_when_their_move_is_refused_busy(
    server_with, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`busy` for another cause (the game kept changing concurrently on other nodes) is retried
    too: dropped, a move nobody else could make would stall the game."""
    monkeypatch.setattr(retry, "BUSY_RETRY_S", 0.01)
    refused: list[str] = []
    real = RoomHub.act_as_bot

    async def concurrent_at_first(hub: RoomHub, seat: str, move: Any, action_id: str) -> None:
        if len(refused) < 2:
            refused.append(action_id)
            raise Refused("busy", "the game changed concurrently; send again with the same id")
        await real(hub, seat, move, action_id)

    monkeypatch.setattr(RoomHub, "act_as_bot", concurrent_at_first)
    server: TestClient = server_with(ports=SCRIPTED_BOTS)
    host = host_watching_four_bots(server)
    host.ok({"type": "start"})
    watch_until_over(host)
    assert refused[0] == refused[1]  # the same move, tried again


@pytest.mark.parametrize("instrumented", [True, False], ids=["metrics", "no-metrics"])
def test_busy_reaches_the_client_as_busy_with_or_without_the_metrics_wrapper(
    server: TestClient, monkeypatch: pytest.MonkeyPatch, instrumented: bool
) -> None:
    """`StoreBusy` becomes `busy` where the server answers (the socket loop, the HTTP error
    handler), not in the metrics wrapper: with the node's store calls going straight to the
    store, a socket and an HTTP request still get `busy`."""
    node = server.app.state.node  # type: ignore[attr-defined]
    store = node.ports.store
    overloaded = Overloaded(store, monkeypatch)
    if not instrumented:
        monkeypatch.setattr(node, "ports", replace(node.ports, store=store.inner))
    code = new_room(server)
    client = Client(server, code)
    overloaded.on = True
    refused = client.request({"type": "join", "name": "Ann"})
    assert (refused["type"], refused["code"]) == ("error", "busy")
    answer = server.post("/api/rooms", json={"game": "decrypto", "options": {}})
    assert (answer.status_code, answer.json()["error"]["code"]) == (503, "busy")
    assert overloaded.refused == 2
    sample = node.metrics.registry.get_sample_value
    failed = sample("codebreakers_store_errors_total", {"op": "update_room"})
    assert failed == (1 if instrumented else None)  # counted only through the wrapper
    refusals = sample("codebreakers_messages_total", {"type": "Join", "outcome": "refused"})
    assert refusals == 1
    overloaded.on = False
    client.join("Ann")
    assert len(server.get(f"/api/rooms/{code}").json()["players"]) == 1
