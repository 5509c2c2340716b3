"""Redis dies in the middle of a game and comes back: the nodes poll the store meanwhile, so
players on the other node keep seeing every action, and they resubscribe by themselves."""

from __future__ import annotations

import time

import pytest
from multinode_helpers import OwnRedis, metrics, split_table
from real_server import RealServer
from server_harness import Table


def wait_for(check: object, what: str, limit_s: float = 20.0) -> None:
    deadline = time.monotonic() + limit_s
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.1)


@pytest.mark.slow
@pytest.mark.postgres
def test_a_redis_restart_mid_game_is_survived(nodes: list[RealServer], own_redis: OwnRedis) -> None:
    _, clients = split_table(nodes)  # clients 0, 2 on the first node; 1, 3 on the second
    table = Table(clients)
    table.step()
    table.step()

    own_redis.kill()
    wait_for(lambda: all(metrics(n)["codebreakers_bus_healthy"] == 0 for n in nodes), "bus down")
    # Without the bus every step is still seen by the players on the other node (`sync` waits
    # for all four), from the store: the author's node pushes at once, the other polls.
    for _ in range(3):
        table.step()
    polled = [metrics(n)['codebreakers_catchups_total{reason="poll"}'] for n in nodes]
    assert all(count >= 1 for count in polled)

    own_redis.start()  # same port: the nodes find it again by themselves
    # Each node retries within its capped backoff (5 s, jittered); a loaded CI machine adds more.
    wait_for(lambda: all(metrics(n)["codebreakers_bus_healthy"] == 1 for n in nodes), "bus up", 60)
    # The catch-up watcher looks at the bus's health a few times a second: wait for its sweep.
    recovered = 'codebreakers_catchups_total{reason="recovered"}'
    wait_for(lambda: all(metrics(n).get(recovered, 0) >= 1 for n in nodes), "recovery sweep")
    for node in nodes:
        assert metrics(node)["codebreakers_bus_reconnects_total"] >= 1
    polled = [metrics(n)['codebreakers_catchups_total{reason="poll"}'] for n in nodes]
    table.play_out()
    assert all(c.view and c.view["phase"] == "over" for c in clients)
    # The rest of the game travelled over the bus again: nobody polled any more.
    assert [metrics(n)['codebreakers_catchups_total{reason="poll"}'] for n in nodes] == polled
