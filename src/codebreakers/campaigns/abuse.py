"""Abuse campaign: floods, a slow reader and foreign pages against a live server.

- chat flood: one player writes lines as fast as it can; counts the lines accepted and refused;
- action flood: one socket sends frames as fast as it can; the same;
- per-IP flood: many sockets from one address, each flooding: what the address got through,
  against the per-address allowance (server/ops/ipguard.py);
- connection flood: many sockets opened from one address: how many the server kept open and
  how many it refused with `too_many_connections`;
- slow reader: sockets that stop reading while the room changes quickly; the server's memory
  before and after, and whether it dropped them;
- cross-origin: sockets whose Origin is another site must get `bad_origin` and a 1008 close;
- forwarded spoof: the connection flood again, each socket naming another client in its own
  `X-Forwarded-For`: no proxy is trusted, so all count as the one address they come from;
- slow handshakes and slow frames: raw connections sending the upgrade a byte every 0.5 s, or a
  60 KB frame 50 bytes every 0.5 s (campaigns/slow.py): every one must be closed within the
  server's 10 s bounds (the frames with 1008) while a player is served meanwhile.
HTML in user texts is checked in a real browser by tests/e2e/test_html_inert.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import time
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from codebreakers.campaigns import report
from codebreakers.campaigns.client import Tab
from codebreakers.campaigns.killable_nodes import Cluster, cluster
from codebreakers.campaigns.slow import trickled_frame, trickled_handshake
from codebreakers.server.ops.config import PER_IP
from codebreakers.server.wire.protocols import FRAME_TIMEOUT_S, HEAD_TIMEOUT_S

JSON = dict[str, Any]
FLOOD = 200
SLOW_SLACK_S = 5.0  # a loaded machine's timers fire late


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
    """`sockets` players of one address each send 28 frames at once (with hello and join, its own
    socket's burst), all together: only the address's allowance may get through."""
    started = time.monotonic()
    tabs = [await _player(c, code, f"Same IP {i}") for i in range(sockets)]
    # Each its own name: two players of a room can't share one (name_taken).
    floods = [_flood(tab, [{"type": "rename", "id": tab.new_id(), "name": f"x{n}"}
                           for _ in range(28)])
              for n, tab in enumerate(tabs)]  # fmt: skip
    totals: Counter[str] = sum((await asyncio.gather(*floods)), Counter())
    seconds = time.monotonic() - started
    for tab in tabs:
        await tab.close()
    # Every hello and join counted too; the address's burst, then its rate per second.
    allowed = int(PER_IP.frame_burst + PER_IP.frames_per_s * seconds) - 2 * sockets + 1
    return {"sockets": sockets, "sent": sockets * 28, "seconds": round(seconds, 2),
            "allowed": allowed, "answers": dict(totals)}  # fmt: skip


async def connection_flood(c: Cluster, count: int, spoof: bool = False) -> JSON:
    """Open `count` sockets from one address and keep them: how many does the server hold?
    With `spoof`, each names a client of its own in `X-Forwarded-For`."""
    opened, failed = [], 0
    for i in range(count):
        named = {"X-Forwarded-For": f"10.{i // 256}.{i % 256}.7"} if spoof else None
        try:
            opened.append(await connect(c.ws_urls[0], open_timeout=20, additional_headers=named))
        except (OSError, InvalidStatus, TimeoutError):
            failed += 1
    answers: Counter[str] = Counter()
    for ws in opened:
        try:
            with contextlib.suppress(ConnectionClosed):  # a refused socket has its answer queued
                await ws.send(json.dumps({"type": "hello", "room": "ZZZZZZ"}))
            answers[json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code", "?")] += 1
        except (ConnectionClosed, TimeoutError):
            answers["closed_silently"] += 1
    rss = c.nodes[0].rss() / 2**20
    for ws in opened:
        await ws.close()
    # A socket held open gets its hello judged: no such room, or, when the address's frame
    # allowance is spent (by the per-IP flood just before, say), too many frames.
    held = answers.pop("room_not_found", 0) + answers.pop("rate_limited", 0)
    return {"attempted": count, "handshakes": len(opened), "failed": failed,
            "held_open": held, "cap": PER_IP.sockets,
            "refused": dict(answers), "rss_mb_with_all_open": round(rss, 1)}  # fmt: skip


def _small_window_socket(url: str) -> socket.socket:
    """A client socket with an 8 KiB receive buffer: the kernel's autotuning (up to 32 MiB on
    this machine) would otherwise absorb a whole run of pushes on loopback, and the server's
    outbox would never be tested."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)  # before connect: sets the window
    sock.connect((host, port))
    sock.setblocking(False)
    return sock


async def slow_readers(c: Cluster, code: str, readers: int, changes: int) -> JSON:
    node = c.nodes[0]
    before = node.rss() / 2**20
    stuck = []
    for _ in range(readers):
        url = c.ws_urls[0]
        ws = await connect(url, sock=_small_window_socket(url), max_queue=1, max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "room": code}))
        stuck.append(ws)  # never read again: its TCP window fills, then the server's outbox
    writers = [await _player(c, code, f"Writer {i}") for i in range(8)]
    peak = before
    done = sent = 0
    started = time.monotonic()
    while done < changes:  # room changes made, each pushed to every reader
        for tab in writers:
            answer = await tab.request({"type": "rename", "name": f"W{sent % 97} {'x' * 20}"})
            sent += 1
            done += answer["type"] == "ack"
        if answer.get("code") == "rate_limited":
            await asyncio.sleep(0.1)  # each writer's socket allows 10 frames a second
        if sent % 200 < len(writers):
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


async def slow_clients(c: Cluster, handshakes: int, frames: int) -> JSON:
    """Trickled handshakes and frames at once, a player served meanwhile: how long until each
    was cut off (None: still open after the whole handshake or frame went)."""
    port = urlsplit(c.ws_urls[0]).port
    assert port is not None
    shakes = [asyncio.ensure_future(trickled_handshake(port)) for _ in range(handshakes)]
    trickled = [asyncio.ensure_future(trickled_frame(port)) for _ in range(frames)]
    await asyncio.sleep(2)
    started = time.monotonic()
    player = await _player(c, await _room(c), "Meanwhile")
    await player.request({"type": "rename", "name": "Still served"})
    served_s = time.monotonic() - started
    await player.close()
    shook = await asyncio.gather(*shakes)
    framed = await asyncio.gather(*trickled)
    head_bound, frame_bound = HEAD_TIMEOUT_S + SLOW_SLACK_S, FRAME_TIMEOUT_S + SLOW_SLACK_S
    return {
        "handshakes": handshakes,
        "handshakes_cut_in_time": sum(s is not None and s <= head_bound for s in shook),
        "handshake_longest_s": max((round(s, 1) for s in shook if s is not None), default=None),
        "frames": frames,
        "frames_cut_1008_in_time": sum(
            s is not None and s <= frame_bound and code == 1008 for s, code in framed
        ),
        "frame_longest_s": max((round(s, 1) for s, _ in framed if s is not None), default=None),
        "player_served_meanwhile_s": round(served_s, 2),
    }


async def campaign(c: Cluster, limited: Cluster, connections: int) -> JSON:
    """`limited` keeps the per-address limits (all clients here share 127.0.0.1); on `c` they
    are off, so each per-socket and per-player limit is measured alone."""
    code = await _room(c)
    return {
        "campaign": "abuse",
        "chat_flood": await chat_flood(c, code),
        "action_flood": await action_flood(c, code),
        "ip_flood": await ip_flood(limited, await _room(limited), 40),
        "connection_flood": await connection_flood(limited, connections),
        "slow_readers": await slow_readers(c, await _room(c), 4, 1200),
        "cross_origin": await cross_origin(c, code, 20),
        "forwarded_spoof": await connection_flood(limited, connections, spoof=True),
        "slow_clients": await slow_clients(c, 100, 50),
        "server_tracebacks": len(c.errors_logged()) + len(limited.errors_logged()),
    }


def _bounded(flood: JSON) -> bool:
    """A connection flood is bounded when no more than the cap stayed open and some were refused."""
    refused: int = flood["refused"].get("too_many_connections", 0)
    held_open: int = flood["held_open"]
    cap: int = flood["cap"]
    return held_open <= cap and refused > 0


def failures(s: JSON) -> list[str]:
    bad = []
    if s["chat_flood"]["answers"].get("ack", 0) > 6:
        bad.append("chat flood not limited")
    if s["action_flood"]["answers"].get("ack", 0) > s["action_flood"]["allowed"]:
        bad.append("frame flood not limited")
    if s["ip_flood"]["answers"].get("ack", 0) > s["ip_flood"]["allowed"]:
        bad.append("per-IP frame flood not limited")
    if not _bounded(s["connection_flood"]):
        bad.append("connection flood not bounded")
    slow = s["slow_readers"]
    if slow["slow_readers_dropped"] < slow["readers"]:
        bad.append("slow readers kept")
    if s["cross_origin"]["refused_bad_origin_1008"] != s["cross_origin"]["attempts"]:
        bad.append("cross-origin accepted")
    if not _bounded(s["forwarded_spoof"]):
        bad.append("forwarded headers believed")
    slow = s["slow_clients"]
    if slow["handshakes_cut_in_time"] < slow["handshakes"]:
        bad.append("slow handshakes kept")
    if slow["frames_cut_1008_in_time"] < slow["frames"]:
        bad.append("slow frames kept")
    if s["server_tracebacks"]:
        bad.append("server_tracebacks")
    return bad


def run(args: argparse.Namespace) -> int:
    async def go() -> JSON:
        with (
            cluster(args.db, args.redis, 1) as c,
            cluster(args.db, args.redis, 1, per_ip_limits=True) as limited,
        ):
            return await campaign(c, limited, args.count or 300)

    summary = asyncio.run(go())
    return report(summary, failures(summary), args.json)
