"""The campaigns' scripted table stops as one: no tab stops on a game's end while its host is
asking for the next game or already holds it (crash campaign, seed 7309 at load 20: three tabs
stopped on the last game's end as the host's rematch came, and the new game waited for them)."""

from __future__ import annotations

import asyncio
import random

from codebreakers.campaigns.client import Tab
from codebreakers.campaigns.players import Ledger, Table


def _table() -> Table:
    tabs = [Tab(["ws://127.0.0.1:1/ws"], "ROOM", name=f"t{i}") for i in range(4)]
    for tab in tabs:
        tab.game_id = "g1"
    return Table("ROOM", tabs, Ledger(), random.Random(1))


def test_a_tab_stops_with_its_host_not_before() -> None:
    table = _table()
    host, other = table.tabs[0], table.tabs[1]
    keep_going = asyncio.Event()
    keep_going.set()
    assert not table.done(host, keep_going) and not table.done(other, keep_going)
    keep_going.clear()
    assert table.done(host, keep_going) and table.done(other, keep_going)
    table.rematching = True  # the host asks for the next game
    assert not table.done(other, keep_going)
    table.rematching = False
    host.game_id = "g2"  # ... and has it: the others must play it
    assert not table.done(other, keep_going)
    other.game_id = "g2"
    assert table.done(other, keep_going)
