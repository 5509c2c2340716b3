"""Measure the bus: `python -m codebreakers.bench.bus_bench [redis://...] [--messages N]`.

Two buses (two "nodes") on a private channel; node one publishes, and the time until node two's
listener has each message is recorded: first at a steady pace (latency), then all at once
(throughput). Without a URL both nodes share one in-process bus.
Figures go to docs/storage.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid

from codebreakers.bus.base import Bus, Notice
from codebreakers.bus.local import LocalBus
from codebreakers.bus.redis import RedisBus


async def measure(
    sender: Bus, receiver: Bus, count: int, spacing: float
) -> tuple[list[float], float]:
    """Each message's latency, and the seconds from the first publish to the last delivery."""
    latencies: list[float] = []
    sent: list[float] = []  # by message number (its room_version)
    done = asyncio.Event()

    async def listener(notice: Notice) -> None:
        latencies.append(time.perf_counter() - sent[notice.room_version])
        if len(latencies) == count:
            done.set()

    async def ignore(notice: Notice) -> None:
        return None

    await receiver.start(listener)
    if sender is not receiver:
        await sender.start(ignore)
    start = time.perf_counter()
    for i in range(count):
        sent.append(time.perf_counter())
        await sender.publish(Notice(room="BENCH", room_version=i))
        if spacing:
            await asyncio.sleep(spacing)
    async with asyncio.timeout(30):
        await done.wait()
    return latencies, time.perf_counter() - start


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="redis:// URL (default: the in-process bus)")
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args()
    for label, spacing in (("one at a time (1 ms apart)", 0.001), ("burst", 0.0)):
        if args.url:
            channel = f"codebreakers:bench:{uuid.uuid4().hex}"
            sender: Bus = RedisBus(args.url, channel=channel, name="codebreakers-bench")
            receiver: Bus = RedisBus(args.url, channel=channel, name="codebreakers-bench")
        else:
            sender = receiver = LocalBus()
        try:
            latencies, wall = await measure(sender, receiver, args.messages, spacing)
        finally:
            await sender.close()
            await receiver.close()
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99)]
        print(
            f"{args.url or 'in-process'}, {label}: {len(latencies)} messages in {wall:.2f} s "
            f"({len(latencies) / wall:.0f}/s), latency p50 "
            f"{statistics.median(latencies) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms"
        )


if __name__ == "__main__":
    asyncio.run(main())
