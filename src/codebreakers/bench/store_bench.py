"""Measure the store: `python -m codebreakers.bench.store_bench [URL] [--games N] [--actions N]`.

Without a URL it uses a fresh SQLite file in a temporary directory; with a PostgreSQL URL it
writes rooms, games and chat prefixed `bench-` into that database (use a scratch database).
Prints append latency (one writer), throughput and latency with many games appending at once,
room updates, chat appends, and the time to load a long game, each with its CPU per operation:
all threads, and in brackets the event loop's thread alone (the rest is the store's threads).
`--pool-size N` sizes a PostgreSQL store's connection pool. Figures go to docs/storage.md (and
the machine's load average is printed with them).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

from codebreakers.store import open_store
from codebreakers.store.base import ActionRow, AppendResult, RoomRow, Store

ACTION = {"type": "guess", "team": "white", "code": [3, 1, 4], "clues": ["orbit", "tide", "ink"]}
ROOM = {"seats": {f"white:{i}": {"name": f"player {i}", "ready": True} for i in range(4)}}


async def timed(work: Callable[[], Awaitable[object]]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (this process, all threads) and CPU seconds of this thread (the
    event loop's) that `work` took."""
    wall, cpu, loop = time.perf_counter(), time.process_time(), time.thread_time()
    await work()
    return time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - loop


def report(label: str, latencies: list[float], spent: tuple[float, float, float]) -> None:
    ordered = sorted(latencies)
    wall, cpu, loop = spent
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{label:<27} {len(ordered) / wall:7.0f}/s  p50 {statistics.median(ordered) * 1e3:7.2f} ms"
        f"  p99 {p99 * 1e3:7.2f} ms  CPU {cpu / len(ordered) * 1e3:5.2f} ms each"
        f" (loop {loop / len(ordered) * 1e3:4.2f})  ({len(ordered)} in {wall:.2f} s)"
    )


async def append_all(store: Store, game_id: str, versions: range, out: list[float]) -> None:
    for v in versions:
        row = ActionRow(v, "white:0", f"c{v}", ACTION, float(v))
        start = time.perf_counter()
        result = await store.append_action(game_id, row)
        out.append(time.perf_counter() - start)
        if result is not AppendResult.APPENDED:
            raise RuntimeError(f"append {v} to {game_id}: {result}")


async def run(store: Store, games: int, actions: int) -> None:
    tag = f"bench-{uuid.uuid4().hex[:8]}"
    await store.create_room(RoomRow(tag, "decrypto", {}, 1, False, False, 0.0, 0.0))
    ids = [f"{tag}-{i}" for i in range(games)]
    for game_id in ids:
        await store.create_game(game_id, tag, "decrypto", {"seed": 1}, 0.0)

    one: list[float] = []
    spent = await timed(lambda: append_all(store, ids[0], range(1, actions + 1), one))
    report("append, one writer", one, spent)

    many: list[float] = []
    spent = await timed(
        lambda: asyncio.gather(
            *(append_all(store, g, range(1, actions + 1), many) for g in ids[1:])
        )
    )
    report(f"append, {games - 1} games at once", many, spent)

    updates: list[float] = []

    async def update_all() -> None:
        for v in range(1, actions + 1):
            start = time.perf_counter()
            done = await store.update_room(tag, v, ROOM, public=False, waiting=True, now=float(v))
            updates.append(time.perf_counter() - start)
            if not done:
                raise RuntimeError(f"update_room {tag} at version {v} refused")

    report("update_room, one writer", updates, await timed(update_all))

    chat: list[float] = []

    async def say(i: int) -> None:
        start = time.perf_counter()
        await store.append_chat(tag, None, "all", None, "bench", f"line {i}", float(i))
        chat.append(time.perf_counter() - start)

    spent = await timed(lambda: asyncio.gather(*(say(i) for i in range(actions))))
    report(f"chat, {actions} lines at once", chat, spent)

    for label, read in (
        ("load_room", lambda: store.load_room(tag)),
        (f"load_game, {actions} actions", lambda: store.load_game(ids[0])),
    ):
        reads: list[float] = []
        report(label, reads, await timed(partial(repeat, read, 100, reads)))


async def repeat(read: Callable[[], Awaitable[object]], times: int, out: list[float]) -> None:
    for _ in range(times):
        out.append((await timed(read))[0])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--games", type=int, default=51)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument(
        "--pool-size",
        type=int,
        help="PostgreSQL: connections in the store's pool (default: the store's POOL_SIZE)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.url or f"sqlite:///{Path(scratch) / 'bench.db'}"
        store = open_store(url)
        if args.pool_size is not None:
            from sqlalchemy.engine import make_url

            from codebreakers.store.postgres.store import PostgresStore

            if not isinstance(store, PostgresStore):
                parser.error("--pool-size is for a PostgreSQL URL")
            store = PostgresStore(make_url(url), pool_size=args.pool_size)
        await store.open()
        try:
            load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
            pool = f", pool of {args.pool_size}" if args.pool_size is not None else ""
            print(f"store bench on {url.split('@')[-1]}{pool} (load average {load})")
            await run(store, args.games, args.actions)
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
