"""The hop between two real nodes (PostgreSQL + Redis): a game whose table is split over both
reaches the players of each node from the other's notices, without reading the store back."""

from __future__ import annotations

import pytest
from multinode_helpers import metrics, split_table
from real_server import RealServer
from server_harness import Table


@pytest.mark.slow
@pytest.mark.postgres
def test_a_split_table_hops_from_the_notices(nodes: list[RealServer]) -> None:
    _, clients = split_table(nodes)  # clients 0, 2 on the first node; 1, 3 on the second
    table = Table(clients)
    table.play_out()
    assert all(c.view and c.view["phase"] == "over" for c in clients)
    took = [metrics(n) for n in nodes]
    carried = [m.get('codebreakers_notices_total{took="carried"}', 0) for m in took]
    read = [m.get('codebreakers_notices_total{took="store"}', 0) for m in took]
    # Each node took the other's changes from the notices; the one read is the new game's
    # setup, which no notice carries, on the node that didn't start it (a notice that raced a
    # change of the reader's own may cost one more).
    assert all(c >= 3 for c in carried), (carried, read)
    assert sum(read) <= 2, (carried, read)
