"""Network-fault campaign: players' connections cut, stalled or slowed mid-action.

Every tab reaches the server through a FaultyProxy. While tables play, a fault picks an open
connection at random: `cut` drops it, `stall` freezes it for up to 8 s (longer than the tab's
3 s patience, so the tab gives up, reconnects and sends its unanswered message again with the
same id), `slow` trickles it for a few seconds. Afterwards: every acknowledged action is stored
exactly once (retries were answered, never applied twice), chat lines retried on a live server
are not doubled, and every tab's view converged: it equals the view a fresh socket gets.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any

from codebreakers.campaigns import report
from codebreakers.campaigns.client import Tab
from codebreakers.campaigns.killable_nodes import Cluster, cluster
from codebreakers.campaigns.players import Ledger, Table, open_table
from codebreakers.campaigns.proxy import FaultyProxy
from codebreakers.campaigns.verify import check_store

JSON = dict[str, Any]
PATIENCE_S = 3.0
GAP_S = (0.1, 0.8)


async def _faults(proxy: FaultyProxy, count: int, rng: random.Random) -> None:
    healing: list[asyncio.Task[None]] = []
    for _ in range(count):
        await asyncio.sleep(rng.uniform(*GAP_S))
        if not proxy.pipes:
            continue
        pipe = rng.choice(sorted(proxy.pipes, key=id))
        mode = rng.choices(["cut", "stall", "slow"], [4, 3, 3])[0]
        proxy.fault(mode, pipe)
        if mode != "cut":
            healing.append(asyncio.create_task(_heal(proxy, pipe, rng.uniform(0.5, 8.0))))
    await asyncio.gather(*healing)


async def _heal(proxy: FaultyProxy, pipe: Any, after: float) -> None:
    await asyncio.sleep(after)
    proxy.heal(pipe)


async def _converged(c: Cluster, table: Table) -> int:
    """Tabs whose view differs from what a fresh socket (no proxy) gets now."""
    differ = 0
    for tab in table.tabs:
        fresh = Tab(c.ws_urls, table.code, rng=random.Random(1))
        fresh.token = tab.token
        await fresh.open()
        if (fresh.game_id, fresh.version, fresh.view) != (tab.game_id, tab.version, tab.view):
            differ += 1
        await fresh.close()
    return differ


async def campaign(c: Cluster, faults: int, tables: int, seed: int) -> JSON:
    rng = random.Random(seed)
    proxy = FaultyProxy(c.nodes[0].port)
    await proxy.start()
    urls = [f"ws://127.0.0.1:{proxy.port}/ws"]
    ledger = Ledger()
    opened = [await open_table(c.http, urls, ledger, rng) for _ in range(tables)]
    for table in opened:
        for tab in table.tabs:
            tab.answer_timeout = PATIENCE_S
    keep_going = asyncio.Event()
    keep_going.set()
    players = [asyncio.create_task(t.play_seat(tab, keep_going)) for t in opened for tab in t.tabs]
    started = time.monotonic()
    try:
        await _faults(proxy, faults, rng)
        keep_going.clear()
        await asyncio.wait_for(asyncio.gather(*players), 300)
        await asyncio.sleep(1.0)
        diverged = sum([await _converged(c, t) for t in opened])
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        tabs = [tab for t in opened for tab in t.tabs]
        for tab in tabs:
            await tab.close()
        await proxy.close()
    found = await check_store(c.db, ledger)
    return {
        "campaign": "network",
        "seed": seed,
        "faults": proxy.faults,
        "tables": tables,
        "seconds": round(time.monotonic() - started, 1),
        "actions_sent": ledger.actions_sent,
        "refused": ledger.refused,
        "reconnects": sum(t.reconnects for t in tabs),
        "resent_same_id": sum(t.resent for t in tabs),
        "views_diverged": diverged,
        "server_tracebacks": len(c.errors_logged()),
        **found,
    }


def failures(summary: JSON) -> list[str]:
    keys = ("lost", "duplicates", "wrong_version", "unexpected", "games_unfinished")
    bad = [k for k in keys if summary[k]]
    bad += [k for k in ("views_diverged", "chat_lost", "chat_duplicates") if summary[k]]
    bad += ["replay_mismatch"] if summary["replay_mismatch"] else []
    bad += ["internal_error"] if "internal_error" in summary["refused"] else []
    return bad


def run(args: argparse.Namespace) -> int:
    async def go() -> JSON:
        with cluster(args.db, args.redis, 1) as c:
            return await campaign(c, args.count or 200, args.games or 3, args.seed)

    summary = asyncio.run(go())
    return report(summary, failures(summary), args.json)
