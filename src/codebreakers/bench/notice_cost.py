"""What a bus notice costs: `python -m codebreakers.bench.notice_cost --redis URL [--db URL]
[--rate N] [--seconds S] [--subscribers K] [--payload-bytes B] [--json]`.

With many nodes every node receives every room's notices and drops those of rooms it does not
hold, and Redis writes each notice once per subscribed node: the two costs that grow with the
node count in the capacity model (docs/deployment.md, "Capacity"). A game run mixes them with
everything else, so this measures them alone: one real node (`codebreakers serve` on `--db`,
subscribed to `--redis`) holding no room, K more subscribers standing in for other nodes (they
only read), and notices of rooms nobody holds published at `--rate` for `--seconds`, after an
idle window of the same length. Reported: the node's CPU per notice it received (over its idle
CPU), Redis's CPU per PUBLISH and per delivery (a notice written to one subscriber), and what
reached the stand-ins. `--payload-bytes` pads each notice with a field of that many bytes (a
receiver ignores it), to price notices that carry the change itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from codebreakers.bench import redisstats
from codebreakers.bench.servers import ServerSet, start_servers

TICK_S = 0.01  # notices go out in one pipelined batch every tick


async def _stand_in(url: str, channel: str, counts: list[int], index: int) -> None:
    """A subscriber that only reads, as another node's would (its own CPU is not measured)."""
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel)
    try:
        async for message in pubsub.listen():
            if message["type"] == "message":
                counts[index] += 1
    finally:
        with contextlib.suppress(Exception):
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            await client.aclose()


async def _publish(url: str, channel: str, rate: float, seconds: float, pad: int) -> int:
    from redis.asyncio import Redis

    client = Redis.from_url(url)
    sent = 0
    start = time.monotonic()
    padding = "x" * pad
    try:
        while (now := time.monotonic()) - start < seconds:
            due = int((now - start) * rate) - sent
            if due > 0:
                async with client.pipeline(transaction=False) as pipe:
                    for n in range(sent, sent + due):
                        notice: dict[str, Any] = {"room": f"Q{n % 5000:04d}", "room_version": n}
                        if pad:
                            notice["pad"] = padding
                        pipe.publish(channel, json.dumps(notice, separators=(",", ":")))
                    await pipe.execute()
                sent += due
            await asyncio.sleep(TICK_S)
    finally:
        with contextlib.suppress(Exception):  # a close that times out on a loaded machine
            await client.aclose()
    return sent


def _node_cpu_over(servers: ServerSet, seconds: float) -> float:
    before = servers.cpu_sample()
    time.sleep(seconds)
    return servers.cpu_sample().rates(before)["cores"]


async def _measure(args: argparse.Namespace, servers: ServerSet) -> dict[str, Any]:
    from codebreakers.bus.redis import CHANNEL

    counts = [0] * args.subscribers
    readers = [
        asyncio.create_task(_stand_in(args.redis, CHANNEL, counts, i))
        for i in range(args.subscribers)
    ]
    await asyncio.sleep(1.0)  # subscribed
    idle = await asyncio.to_thread(_node_cpu_over, servers, args.seconds)
    node0, redis0, t0 = servers.cpu_sample(), redisstats.sample(args.redis), time.monotonic()
    sent = await _publish(args.redis, CHANNEL, args.rate, args.seconds, args.payload_bytes)
    await asyncio.sleep(0.5)  # the last batch delivered
    node1, redis1, t1 = servers.cpu_sample(), redisstats.sample(args.redis), time.monotonic()
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    span = t1 - t0
    busy = node1.rates(node0)["cores"]
    per_s = sent / span
    report: dict[str, Any] = {
        "notices_sent": sent,
        "notices_per_s": round(per_s, 1),
        "payload_bytes": args.payload_bytes,
        "stand_in_subscribers": args.subscribers,
        "stand_ins_received": counts,
        "node_cpu_idle": idle,
        "node_cpu_publishing": busy,
        "node_cpu_us_per_notice": round((busy - idle) * 1e6 / per_s, 2) if per_s else None,
    }
    if redis0 and redis1:
        report["redis"] = redisstats.window_report(redis0, redis1, span, per_s)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", required=True)
    parser.add_argument("--db", default=None, help="the node's store (default: a temp SQLite)")
    parser.add_argument("--rate", type=float, default=5000.0, help="notices per second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--subscribers", type=int, default=3, help="stand-ins for other nodes")
    parser.add_argument("--payload-bytes", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="codebreakers-notice-") as tmp:
        servers = start_servers(
            bare=False, server="uvicorn", nodes=1, db=args.db, redis=args.redis, workdir=Path(tmp)
        )
        try:
            report = asyncio.run(_measure(args, servers))
        finally:
            servers.stop()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>24}  {value}")


if __name__ == "__main__":
    main()
