"""The load generator: a separate process that plays N players against one or more servers.

Run by `codebreakers bench` as `python -m codebreakers.bench.loadgen ...`. It talks to its parent
in JSON lines on stdout: `ready` once every table is seated and idle, then it waits for `go` on
stdin (the parent measures the idle server meanwhile), warms up for one pacing interval, measures
for `--duration` seconds (`done`), lets in-flight actions finish and prints `result`.

Pacing: each table acts once every `tables / rate` seconds, starting at a random phase so the
load is even; a table never has two actions in flight, so when the server falls behind the
achieved `actions_per_s` falls below the target instead of queueing without bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import sys
import time
from typing import Any, Protocol

import uvloop

from codebreakers.bench.bare_table import BareTable
from codebreakers.bench.sockets import CLIENTS, PLACEMENTS, Shared
from codebreakers.bench.stats import Stats
from codebreakers.server.ops.process import raise_nofile, tune_gc

SEATS = 6
ACTION_TIMEOUT_S = 10.0
DRAIN_S = 5.0
OPENING_AT_ONCE = 100  # tables being seated at the same time


class Table(Protocol):
    @property
    def players(self) -> int: ...

    async def open(self, player_index: int) -> None: ...

    async def act(self, timeout: float) -> None: ...

    def close(self) -> None: ...


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}), flush=True)


def make_tables(args: argparse.Namespace, shared: Shared) -> list[Table]:
    count = max(1, math.ceil(args.players / SEATS))
    if args.bare:
        return [BareTable(shared, n, SEATS) for n in range(count)]
    from codebreakers.bench.decrypto_table import DecryptoTable

    return [DecryptoTable(shared, n, SEATS) for n in range(count)]


async def _pace(
    table: Table, interval: float, phase: float, stop: asyncio.Event, stats: Stats
) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(phase)
    next_at = loop.time()
    while not stop.is_set():
        try:
            await table.act(ACTION_TIMEOUT_S)
        except Exception as exc:  # a broken table stops; the count says how many did
            stats.error(f"table_{type(exc).__name__}")
            return
        next_at += interval
        delay = next_at - loop.time()
        if delay <= 0:
            next_at = loop.time()
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)


async def _open_all(tables: list[Table], stats: Stats) -> list[Table]:
    """Seat every table, OPENING_AT_ONCE at a time: all at once, thousands of room writes
    queue at the store, and on PostgreSQL those waiting past the pool's timeout are refused
    `busy`, so tables failed to open."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def open_one(table: Table, first_player: int) -> None:
        async with gate:
            await table.open(first_player)

    results = await asyncio.gather(
        *(open_one(t, i * SEATS) for i, t in enumerate(tables)), return_exceptions=True
    )
    ready = []
    for table, result in zip(tables, results, strict=True):
        if isinstance(result, BaseException):
            stats.error(f"open_{type(result).__name__}")
        else:
            ready.append(table)
    return ready


async def run(args: argparse.Namespace) -> None:
    stats = Stats()
    shared = Shared(args.urls, stats, client=args.client, placement=args.placement, seats=SEATS)
    t0 = time.perf_counter()
    made = make_tables(args, shared)
    spanning = sum(shared.nodes_of_table(n * SEATS) > 1 for n in range(len(made)))
    tables = await _open_all(made, stats)
    players = sum(t.players for t in tables)
    setup_s = round(time.perf_counter() - t0, 2)
    emit("ready", players_connected=players, setup_s=setup_s, errors=stats.errors)
    tune_gc()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

    rate = args.rate or players / 10
    interval = max(0.001, len(tables) / rate) if tables else 1.0
    stop = asyncio.Event()
    rng = random.Random(0)
    pacers = [
        asyncio.create_task(_pace(t, interval, rng.uniform(0, interval), stop, stats))
        for t in tables
    ]
    await asyncio.sleep(min(interval, 5.0))
    cpu0 = time.process_time()
    stats.start()
    emit("measuring")
    await asyncio.sleep(args.duration)
    stats.stop()
    cpu = (time.process_time() - cpu0) / (stats.stopped - stats.started)
    frames_per_s = stats.pushes / (stats.stopped - stats.started)  # received frames
    emit("done")
    stop.set()
    await asyncio.wait(pacers, timeout=ACTION_TIMEOUT_S + DRAIN_S)
    still_open = players - stats.closed
    emit(
        "result",
        players_connected=still_open,
        players_opened=players,
        tables=len(tables),
        rate_target=round(rate, 1),
        loadgen_cpu=round(cpu, 3),
        **stats.summary(),
        loadgen_client=args.client,
        placement=args.placement,
        tables_spanning_nodes=spanning,
        loadgen_cpu_us_per_frame=round(cpu * 1e6 / frames_per_s, 2) if frames_per_s else None,
    )
    for table in tables:
        table.close()
    await asyncio.sleep(0.5)  # let the close frames out; the kernel closes whatever is left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--urls", required=True, help="comma-separated http://host:port of nodes")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--duration", type=float, required=True)
    parser.add_argument("--rate", type=float, default=None)
    parser.add_argument("--bare", action="store_true")
    parser.add_argument("--client", choices=CLIENTS, default="websockets")
    parser.add_argument("--placement", choices=PLACEMENTS, default="split")
    args = parser.parse_args()
    args.urls = args.urls.split(",")
    raise_nofile(args.players + 1_024)
    uvloop.run(run(args))


if __name__ == "__main__":
    main()
