"""Where the load generator puts each player: split over the nodes, or whole tables per node."""

from __future__ import annotations

import asyncio

import pytest

from codebreakers.bench.sockets import Shared
from codebreakers.bench.stats import Stats

NODES = ["http://a", "http://b", "http://c"]


def shared(placement: str, urls: list[str] = NODES) -> Shared:
    async def make() -> Shared:  # its semaphore wants a running loop on older Pythons
        return Shared(urls, Stats(), placement=placement, seats=6)

    return asyncio.run(make())


def test_split_puts_each_tables_players_on_every_node() -> None:
    s = shared("split")
    assert [s.url_for(i) for i in range(6)] == NODES * 2
    assert all(s.nodes_of_table(table * 6) == 3 for table in range(10))


def test_whole_tables_sit_on_one_node_and_tables_alternate() -> None:
    s = shared("tables")
    for table in range(10):
        seats = {s.url_for(table * 6 + seat) for seat in range(6)}
        assert seats == {NODES[table % 3]}
        assert s.nodes_of_table(table * 6) == 1
    # the load is spread: 9 tables, 3 per node
    per_node = [sum(s.url_for(t * 6) == url for t in range(9)) for url in NODES]
    assert per_node == [3, 3, 3]


def test_one_node_is_the_same_either_way() -> None:
    for placement in ("split", "tables"):
        s = shared(placement, ["http://only"])
        assert {s.url_for(i) for i in range(12)} == {"http://only"}
        assert s.nodes_of_table(0) == 1


def test_unknown_client_or_placement_is_refused() -> None:
    with pytest.raises(ValueError):
        shared("everywhere")

    async def bad_client() -> None:
        Shared(NODES, Stats(), client="curl")

    with pytest.raises(ValueError):
        asyncio.run(bad_client())
