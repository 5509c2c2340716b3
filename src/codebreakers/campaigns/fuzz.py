"""Fuzz campaign: junk frames against a live server, then check nothing broke and nothing moved.

A table of four starts a game and pauses; fuzzing sockets then attach to its room as newcomers,
as joined spectators and as seated players (by their seat tokens, not the host's) and each sends
frames one at a time (junk_frames.py), paced under the per-socket rate limit, reading the one reply
every frame gets. Then:

- every reply is an `ack` or an `error` with a documented code, never `internal_error`;
- rejected frames changed nothing: the game's version grew by exactly the number of distinct
  acknowledged `act` ids, the room's version by the acknowledged room changes, the chat by the
  acknowledged lines (an accepted junk frame, say a valid private note, is legitimate play);
- the server never died, logged no traceback, and its memory is flat: resident memory after the
  last frame is compared with the reading taken after the first tenth;
- the paused table then plays its game to the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from codebreakers.campaigns import junk_frames, report
from codebreakers.campaigns.killable_nodes import Cluster, cluster
from codebreakers.campaigns.players import Ledger, open_table
from codebreakers.games.decrypto import REJECTION_CODES
from codebreakers.server.errors import ERROR_CODES

log = logging.getLogger(__name__)
JSON = dict[str, Any]
DOCUMENTED = ERROR_CODES | REJECTION_CODES
ROOM_CHANGES = {
    "join", "rename", "take_seat", "leave_seat", "move", "remove", "add_bot", "set_options",
    "set_public", "transfer_host", "start", "rematch",
}  # fmt: skip
FRAMES_PER_S = 8.0  # per socket, under the server's 10 per second
REPLY_TIMEOUT_S = 30.0
MEMORY_SLACK_MB = 40.0


@dataclass
class Tally:
    sent: Counter[str] = field(default_factory=Counter)  # by kind
    replies: Counter[str] = field(default_factory=Counter)  # ack or error code
    undocumented: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    closed: Counter[int] = field(default_factory=Counter)  # close codes
    acked: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # kind -> (who, id)


def _acked_kind(frame: str | bytes) -> tuple[str, str]:
    """(type, id) of a frame the server acknowledged (so it was valid JSON)."""
    doc = json.loads(frame)
    return doc["type"], doc["id"]


async def _fuzz_socket(
    url: str, room: str, token: str | None, who: str, count: int, seed: int, tally: Tally
) -> None:
    rng = random.Random(seed)
    sent = connections = 0
    while sent < count:
        hello: JSON = {"type": "hello", "room": room} | ({"token": token} if token else {})
        connections += 1
        # Acks are tallied per player, as the server remembers ids: a newcomer's socket is
        # nobody until a junk `join` succeeds, and a new socket is a new newcomer.
        speaker = who if token else f"{who}/{connections}"
        async with connect(url, max_size=2**22, open_timeout=30) as ws:
            await ws.send(json.dumps(hello))
            while json.loads(await ws.recv())["type"] != "chat":
                pass
            try:
                while sent < count:
                    kind, junk = junk_frames.frame(rng)
                    tally.sent[kind] += 1
                    sent += 1
                    started = time.monotonic()
                    await ws.send(junk)
                    speaker = await _reply(ws, junk, speaker, tally)
                    await asyncio.sleep(max(0.0, 1 / FRAMES_PER_S - (time.monotonic() - started)))
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else -1
                tally.closed[code] += 1


async def _reply(ws: Any, junk: str | bytes, who: str, tally: Tally) -> str:
    """Tally the answer to `junk`; returns who the socket speaks for afterwards."""
    while True:
        try:
            text = await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT_S)
        except TimeoutError:
            tally.unanswered += 1
            return who
        got = json.loads(text)
        if got["type"] == "ack":
            tally.replies["ack"] += 1
            kind, msg_id = _acked_kind(junk)
            tally.acked.setdefault(kind, set()).add((who, msg_id))
            return who
        if got["type"] == "error":
            code = got["code"]
            tally.replies[code] += 1
            if code not in DOCUMENTED or code == "internal_error":
                tally.undocumented[code] += 1
            return who
        if got["type"] == "joined":  # a junk `join` was valid: this socket is a player now
            who = got["you"]


async def _state(http: str, tab: Any, room: str) -> JSON:
    async with httpx.AsyncClient() as client:
        doc = (await client.get(f"{http}/api/rooms/{room}", timeout=30)).json()
    return {"room_version": doc["version"], "game_version": tab.version, "chat_seq": tab.chat_seq}


async def campaign(c: Cluster, total: int, sockets: int, seed: int) -> JSON:
    rng = random.Random(seed)
    ledger = Ledger()
    table = await open_table(c.http, c.ws_urls, ledger, rng)
    host, *others = table.tabs
    node = c.nodes[0]
    tally = Tally()
    # Newcomers, then seated non-host players by token; the rest join as spectators first.
    who: list[tuple[str | None, str]] = [(None, f"newcomer{i}") for i in range(sockets // 4)]
    who += [(t.token, t.you or "?") for t in others] * max(1, sockets // 8)
    spectators = sockets - len(who)
    for i in range(spectators):
        spectator = (await _join_spectator(c, table.code, i, rng), f"spectator{i}")
        who.append(spectator)
    await asyncio.sleep(1.0)
    before = await _state(c.http, host, table.code)
    per_socket = max(1, total // len(who))
    rss = {"start_mb": node.rss() / 2**20}
    started = time.monotonic()
    tasks = [
        asyncio.create_task(
            _fuzz_socket(c.ws_urls[0], table.code, token, name, per_socket, seed * 1000 + i, tally)
        )
        for i, (token, name) in enumerate(who)
    ]
    await asyncio.sleep(0)
    warm = asyncio.create_task(_rss_when(node, tally, per_socket * len(who) // 10))
    await asyncio.gather(*tasks)
    seconds = time.monotonic() - started
    rss["after_first_tenth_mb"] = await warm
    rss["after_last_frame_mb"] = node.rss() / 2**20
    await asyncio.sleep(2.0)
    after = await _state(c.http, host, table.code)
    moved = _unexplained(before, after, tally)
    keep_going = asyncio.Event()
    players = [asyncio.create_task(table.play_seat(tab, keep_going)) for tab in table.tabs]
    await asyncio.wait_for(asyncio.gather(*players), 300)
    finished = host.view is not None and host.view["phase"] == "over"
    for tab in table.tabs:
        await tab.close()
    return {
        "campaign": "fuzz",
        "seed": seed,
        "frames": sum(tally.sent.values()),
        "frames_per_s": round(sum(tally.sent.values()) / seconds, 1),
        "sockets": len(who),
        "kinds": dict(tally.sent),
        "replies": dict(tally.replies.most_common()),
        "undocumented_replies": dict(tally.undocumented),
        "unanswered": tally.unanswered,
        "socket_closes": {str(k): v for k, v in tally.closed.items()},
        "server_alive": node.proc is not None and node.proc.poll() is None,
        "server_tracebacks": len(c.errors_logged()),
        "state_before": before,
        "state_after": after,
        "acked_changes": _acked_changes(tally),
        "unexplained_changes": moved,
        "rss_mb": {k: round(v, 1) for k, v in rss.items()},
        "game_finished_afterwards": finished,
    }


async def _join_spectator(c: Cluster, room: str, i: int, rng: random.Random) -> str:
    from codebreakers.campaigns.client import Tab

    tab = Tab(c.ws_urls, room, rng=random.Random(rng.getrandbits(64)))
    await tab.open()
    await tab.join(f"Watcher {i}")
    await tab.close()
    assert tab.token is not None
    return tab.token


async def _rss_when(node: Any, tally: Tally, frames_sent: int) -> float:
    while sum(tally.sent.values()) < frames_sent:
        await asyncio.sleep(0.2)
    return float(node.rss() / 2**20)


def _acked_changes(tally: Tally) -> dict[str, int]:
    """Distinct acknowledged frames that may change each counter (per player, as the server
    counts a retried id once)."""
    return {
        "game_version": len(tally.acked.get("act", set())),
        "room_version": sum(len(v) for k, v in tally.acked.items() if k in ROOM_CHANGES),
        "chat_seq": len(tally.acked.get("chat", set())),
    }


def _unexplained(before: JSON, after: JSON, tally: Tally) -> dict[str, int]:
    """State changes that no acknowledged frame accounts for (goal: none). Fewer changes than
    acks is no fault: a rename to the same name, or options set to what they were, is
    acknowledged and changes nothing."""
    acked = _acked_changes(tally)
    diffs = {k: after[k] - before[k] - acked[k] for k in acked}
    return {k: v for k, v in diffs.items() if v > 0}


def failures(summary: JSON) -> list[str]:
    bad = [k for k in ("undocumented_replies", "unexplained_changes") if summary[k]]
    bad += ["unanswered"] if summary["unanswered"] else []
    bad += [] if summary["server_alive"] else ["server_died"]
    bad += ["server_tracebacks"] if summary["server_tracebacks"] else []
    bad += [] if summary["game_finished_afterwards"] else ["game_stuck"]
    rss = summary["rss_mb"]
    if rss["after_last_frame_mb"] - rss["after_first_tenth_mb"] > MEMORY_SLACK_MB:
        bad.append("memory_grew")
    return bad


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)

    async def go() -> JSON:
        with cluster(args.db, args.redis, 1) as c:
            return await campaign(c, args.frames or 100_000, args.count or 40, args.seed)

    summary = asyncio.run(go())
    return report(summary, failures(summary), args.json)
