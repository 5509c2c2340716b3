"""Abuse campaign: floods, a slow reader and foreign pages against a live server.

- chat flood: one player writes lines as fast as it can; counts the lines accepted and refused;
- action flood: one socket sends frames as fast as it can; the same;
- per-IP flood: many sockets from one address, each flooding: what the address got through;
- connection flood: many sockets opened from one address: how many the server accepted;
- slow reader: sockets that stop reading while the room changes quickly; the server's memory
  before and after, and whether it dropped them;
- cross-origin: sockets whose Origin is another site must get `bad_origin` and a 1008 close.
HTML in user texts is checked in a real browser by tests/e2e/test_html_inert.py.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from collections import Counter
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from codebreakers.campaigns.client import Tab
from codebreakers.campaigns.servers import Cluster, cluster

JSON = dict[str, Any]
FLOOD = 200


async def _room(c: Cluster) -> str:
    async with httpx.AsyncClient() as http:
        got = await http.post(f"{c.http}/api/rooms", json={"game": "decrypto"}, timeout=30)
    return str(got.json()["code"])


async def _player(c: Cluster, code: str, name: str) -> Tab:
    tab = Tab(c.ws_urls, code, rng=random.Random(name))
    await tab.open()
    await tab.join(name)
    return tab


async def _flood(tab: Tab, frames: list[JSON]) -> Counter[str]:
    """Send everything at once, then count the answers."""
    assert tab._ws is not None
    answers = [tab._answers.setdefault(f["id"], asyncio.get_running_loop().create_future())
               for f in frames]  # fmt: skip
    for frame in frames:
        await tab._ws.send(json.dumps(frame))
    got = await asyncio.gather(*answers, return_exceptions=True)
    return Counter(
        "socket_closed" if isinstance(a, BaseException) else a.get("code", "ack") for a in got
    )


async def chat_flood(c: Cluster, code: str) -> JSON:
    tab = await _player(c, code, "Chatty")
    lines = [{"type": "chat", "id": tab.new_id(), "channel": "all", "text": f"spam {i}"}
             for i in range(40)]  # fmt: skip
    counted = await _flood(tab, lines)
    await tab.close()
    return {"sent": len(lines), "answers": dict(counted)}


async def action_flood(c: Cluster, code: str) -> JSON:
    tab = await _player(c, code, "Flooder")
    frames = [{"type": "rename", "id": tab.new_id(), "name": f"F{i}"} for i in range(FLOOD)]
    started = time.monotonic()
    counted = await _flood(tab, frames)
    seconds = time.monotonic() - started
    await tab.close()
    # The documented allowance: a burst of 30 frames, then 10 per second.
    allowed = int(30 + 10 * seconds) + 1
    return {"sent": len(frames), "seconds": round(seconds, 2), "allowed": allowed,
            "answers": dict(counted)}  # fmt: skip


async def ip_flood(c: Cluster, code: str, sockets: int) -> JSON:
    tabs = [await _player(c, code, f"Same IP {i}") for i in range(sockets)]
    totals: Counter[str] = Counter()
    for tab in tabs:
        frames = [{"type": "rename", "id": tab.new_id(), "name": "x"} for _ in range(60)]
        totals += await _flood(tab, frames)
    for tab in tabs:
        await tab.close()
    return {"sockets": sockets, "sent": sockets * 60, "answers": dict(totals)}


async def connection_flood(c: Cluster, count: int) -> JSON:
    opened, refused = [], 0
    for _ in range(count):
        try:
            opened.append(await connect(c.ws_urls[0], open_timeout=20))
        except (OSError, InvalidStatus, TimeoutError):
            refused += 1
    alive = 0
    for ws in opened:
        try:
            await ws.send(json.dumps({"type": "hello", "room": "ZZZZZZ"}))
            await asyncio.wait_for(ws.recv(), 10)
            alive += 1
        except (ConnectionClosed, TimeoutError):
            pass
    rss = c.nodes[0].rss() / 2**20
    for ws in opened:
        await ws.close()
    return {"attempted": count, "accepted": len(opened), "refused": refused,
            "answering": alive, "rss_mb_with_all_open": round(rss, 1)}  # fmt: skip


async def slow_readers(c: Cluster, code: str, readers: int, changes: int) -> JSON:
    node = c.nodes[0]
    before = node.rss() / 2**20
    stuck = []
    for _ in range(readers):
        ws = await connect(c.ws_urls[0], max_queue=1, max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "room": code}))
        stuck.append(ws)  # never read again: its TCP window fills, then the server's outbox
    writers = [await _player(c, code, f"Writer {i}") for i in range(8)]
    peak = before
    done = 0
    started = time.monotonic()
    while done < changes:
        for tab in writers:
            await tab.request({"type": "rename", "name": f"W{done % 97} {'x' * 20}"})
            done += 1
        if done % 200 < len(writers):
            peak = max(peak, node.rss() / 2**20)
    dropped = 0
    for ws in stuck:
        try:
            while True:  # drain what was buffered; a dropped socket ends with a close
                await asyncio.wait_for(ws.recv(), 2)
        except ConnectionClosed:
            dropped += 1
        except TimeoutError:
            pass
        await ws.close()
    for tab in writers:
        await tab.close()
    seconds = round(time.monotonic() - started, 1)
    return {"readers": readers, "room_changes": done, "seconds": seconds,
            "rss_mb_before": round(before, 1), "rss_mb_peak": round(peak, 1),
            "slow_readers_dropped": dropped}  # fmt: skip


async def cross_origin(c: Cluster, code: str, count: int) -> JSON:
    refused = 0
    for i in range(count):
        origin = random.Random(i).choice(["https://evil.example", "http://localhost:1", "null"])
        async with connect(c.ws_urls[0], additional_headers={"Origin": origin}) as ws:
            first = json.loads(await ws.recv())
            try:
                await ws.recv()
            except ConnectionClosed as closed:
                if first.get("code") == "bad_origin" and closed.rcvd and closed.rcvd.code == 1008:
                    refused += 1
    return {"attempts": count, "refused_bad_origin_1008": refused}


async def campaign(c: Cluster, connections: int) -> JSON:
    code = await _room(c)
    return {
        "campaign": "abuse",
        "chat_flood": await chat_flood(c, code),
        "action_flood": await action_flood(c, code),
        "ip_flood": await ip_flood(c, await _room(c), 10),
        "connection_flood": await connection_flood(c, connections),
        "slow_readers": await slow_readers(c, await _room(c), 4, 1200),
        "cross_origin": await cross_origin(c, code, 20),
        "server_tracebacks": len(c.errors_logged()),
    }


def failures(s: JSON) -> list[str]:
    bad = []
    if s["chat_flood"]["answers"].get("ack", 0) > 6:
        bad.append("chat flood not limited")
    if s["action_flood"]["answers"].get("ack", 0) > s["action_flood"]["allowed"]:
        bad.append("frame flood not limited")
    if s["ip_flood"]["answers"].get("ack", 0) > 200:
        bad.append("no per-IP limit")
    if s["connection_flood"]["accepted"] >= s["connection_flood"]["attempted"]:
        bad.append("connection flood not bounded")
    slow = s["slow_readers"]
    if slow["slow_readers_dropped"] < slow["readers"]:
        bad.append("slow readers kept")
    if s["cross_origin"]["refused_bad_origin_1008"] != s["cross_origin"]["attempts"]:
        bad.append("cross-origin accepted")
    if s["server_tracebacks"]:
        bad.append("server_tracebacks")
    return bad


def run(args: argparse.Namespace) -> int:
    async def go() -> JSON:
        with cluster(args.db, args.redis, 1) as c:
            return await campaign(c, args.count or 300)

    summary = asyncio.run(go())
    summary["failures"] = failures(summary)
    print(json.dumps(summary, indent=None if args.json else 2))
    return 1 if summary["failures"] else 0
