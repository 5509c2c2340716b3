"""Crash campaign: SIGKILL server nodes at random moments while tables play, then count losses.

Tables of scripted humans (and bots) play Decrypto games back to back on one or more nodes. A
killer picks a random node at a random moment, SIGKILLs it and starts it again on the same port
and database. Tabs whose socket died reconnect and resend their unanswered message with the
same id, as a browser does. Every tab is a browser with a profile and the rooms are marked
rated, so every game's end also settles results and ratings. When the kills are done the
tables finish their games, and the store is checked against every acknowledgement
(verify.py) and every finished game's rating updates (rating_check.py: each once).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import time
from typing import Any

from codebreakers.campaigns import report
from codebreakers.campaigns.killable_nodes import Cluster, cluster
from codebreakers.campaigns.players import Ledger, Table, open_table
from codebreakers.campaigns.rating_check import check_ratings
from codebreakers.campaigns.verify import check_store

log = logging.getLogger(__name__)
JSON = dict[str, Any]
FINISH_TIMEOUT_S = 300.0
KILL_GAP_S = (0.3, 2.5)  # a kill comes at a uniformly random moment in this range after a restart


async def _kill_loop(
    c: Cluster, kills: int, rng: random.Random, gap: tuple[float, float]
) -> tuple[int, int]:
    """(kills done, restarts that didn't answer /healthz in time and were killed again)."""
    done = stuck = 0
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(*gap))
        node = rng.choice(c.nodes)
        node.kill()
        done += 1
        log.info("kill %d/%d: node on port %d", done, kills, node.port)
        while True:
            try:
                await asyncio.to_thread(node.start)
                break
            except RuntimeError as exc:
                stuck += 1
                log.warning("a restart failed, killing it and starting again: %s", exc)
                node.kill()
    return done, stuck


def _finished(table: Table) -> bool:
    return all(t.view is not None and t.view["phase"] == "over" for t in table.tabs)


def _stall(table: Table) -> JSON:
    """What each tab of a table that did not finish last saw: where a stuck game stopped."""
    return {
        "room": table.code,
        "tabs": [
            {
                "you": t.you,
                "game": t.game_id,
                "version": t.version,
                "phase": t.view and t.view["phase"],
                "waiting_for": t.view and t.view["waiting_for"],
                "connected": t.connected,
            }
            for t in table.tabs
        ],
    }


async def campaign(
    c: Cluster,
    kills: int,
    tables: int,
    bots: int,
    seed: int,
    gap: tuple[float, float],
    finish_timeout: float = FINISH_TIMEOUT_S,
) -> JSON:
    """Play, kill, let the tables finish (for up to `finish_timeout` s: a table still playing
    then is reported with what its tabs last saw, `stalled`), and count."""
    rng = random.Random(seed)
    ledger = Ledger()
    opened: list[Table] = []
    for _ in range(tables):
        opened.append(
            await open_table(
                c.http,
                c.ws_urls,
                ledger,
                rng,
                humans=4 - bots,
                bots=bots,
                options={"rated": True},  # every browser has a profile: rated games
                profiles=True,
            )
        )
    log.info("%d tables playing", len(opened))
    keep_going = asyncio.Event()
    keep_going.set()
    players = [
        asyncio.create_task(table.play_seat(tab, keep_going))
        for table in opened
        for tab in table.tabs
    ]
    started = time.monotonic()
    stalled: list[JSON] = []
    try:
        killed, stuck = await _kill_loop(c, kills, rng, gap)
        keep_going.clear()
        log.info("kills done; the tables finish their games")
        try:
            await asyncio.wait_for(asyncio.gather(*players), finish_timeout)
        except TimeoutError:  # counted below as unfinished games
            log.warning("games still running after %d s", finish_timeout)
            stalled = [_stall(table) for table in opened if not _finished(table)]
    finally:
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for table in opened:
            for tab in table.tabs:
                await tab.close()
    seconds = time.monotonic() - started
    tabs = [tab for table in opened for tab in table.tabs]
    found = await check_store(c.db, ledger)
    found.update(await check_ratings(c.db))
    return {
        "campaign": "crash",
        "db": c.db.split(":", 1)[0],
        "nodes": len(c.nodes),
        "seed": seed,
        "kills": killed,
        "restarts_stuck": stuck,
        "tables": tables,
        "bots_per_table": bots,
        "seconds": round(seconds, 1),
        "actions_sent": ledger.actions_sent,
        "refused": ledger.refused,
        "reconnects": sum(t.reconnects for t in tabs),
        "resent": sum(t.resent for t in tabs),
        "max_reconnects_per_tab_per_kill": round(
            max(t.reconnects for t in tabs) / max(1, killed), 2
        ),
        "server_tracebacks": len(c.errors_logged()),
        "stalled": stalled,
        "stuck_rematches": ledger.stuck_rematches,
        # where a stall comes from, when there is one: the end of each node's log
        "log_tails": [n.tail(1500) for n in c.nodes] if stalled or ledger.stuck_rematches else [],
        **found,
    }


def failures(summary: JSON) -> list[str]:
    """What makes a crash campaign fail: anything lost, doubled, unfinished or mismatched."""
    counts = (
        *("lost", "duplicates", "wrong_version", "unexpected", "games_unfinished"),
        *("ratings_lost", "ratings_settled_unfinished", "ratings_miscounted"),
    )
    bad = [k for k in counts if summary[k]]
    bad += ["replay_mismatch"] if summary["replay_mismatch"] else []
    bad += ["chat_lost"] if summary["chat_lost"] else []
    bad += ["stalled"] if summary["stalled"] else []
    bad += ["stuck_rematches"] if summary["stuck_rematches"] else []
    bad += [f"refused {code}" for code in summary["refused"] if code in ("internal_error",)]
    return bad


def run(args: argparse.Namespace) -> int:
    async def go() -> JSON:
        with cluster(args.db, args.redis, args.nodes) as c:
            return await campaign(
                c, args.count or 50, args.games or 4, args.bots or 0, args.seed, KILL_GAP_S
            )

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    summary = asyncio.run(go())
    return report(summary, failures(summary), args.json)
