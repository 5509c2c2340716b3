"""Process settings for thousands of sockets: enough file descriptors and a quiet GC.

Used by `codebreakers serve` and by every benchmark process. Ten thousand sockets need more
descriptors than the usual soft limit of 1,024, and CPython's cyclic collector, left at its
defaults, walks every live connection object in a full collection and stalls the event loop for
100+ ms (see docs/performance.md).
"""

from __future__ import annotations

import asyncio
import gc
import resource
import time
from dataclasses import dataclass, field

GC_THRESHOLDS = (200_000, 50, 1_000)
NOFILE = 65_536  # descriptors wanted (capped by the hard limit)
BACKLOG = 4096  # pending connections granian queues (uvicorn's own default: 2048)
WS_MAX_BYTES = 1024 * 1024  # beyond the protocol's own 64 KiB check, which answers with an error


def raise_nofile(wanted: int) -> int:
    """Raise the soft (and, if allowed, hard) descriptor limit to `wanted`; return the new soft."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return soft
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
        except (ValueError, OSError):
            wanted = hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return wanted


# The server's collections run on a clock (`collect_on_schedule`), not on allocation counts.
YOUNG_EVERY_S = 0.25
FULL_EVERY = 14_400  # young passes per full collection (1 h)


@dataclass
class CollectorStats:
    """What `collect_on_schedule` did, by generation collected, for /metrics."""

    passes: dict[int, int] = field(default_factory=dict)
    seconds: dict[int, float] = field(default_factory=dict)
    longest_s: dict[int, float] = field(default_factory=dict)

    def record(self, generation: int, seconds: float) -> None:
        self.passes[generation] = self.passes.get(generation, 0) + 1
        self.seconds[generation] = self.seconds.get(generation, 0.0) + seconds
        self.longest_s[generation] = max(self.longest_s.get(generation, 0.0), seconds)


COLLECTOR = CollectorStats()


async def collect_on_schedule() -> None:
    """Collect the young generation every 0.25 s and everything once an hour.

    Every socket keeps a few live objects (the future it waits on, its coroutines, the ping
    timer) that are replaced as it sends and receives, so the young generation fills with them
    while the allocation count CPython triggers on barely moves (old ones are freed as new ones
    are made): with 10,000 players it held 150,000-450,000 objects and a young pass stalled the
    loop for 0.1-0.75 s. On a clock, a pass walks only the sockets active in the last quarter
    second. The survivors pile up in the middle generation, whose pass is as long as the old
    young ones (0.3-0.8 s), so it only comes with the hourly full collection: cycles that outlive
    a young pass wait that long (docs/performance.md, "The garbage collector").
    """
    gc.disable()
    passes = 0
    try:
        while True:
            await asyncio.sleep(YOUNG_EVERY_S)
            passes += 1
            generation = 2 if passes % FULL_EVERY == 0 else 0
            started = time.perf_counter()
            gc.collect(generation)
            COLLECTOR.record(generation, time.perf_counter() - started)
    finally:
        gc.enable()


def freeze_startup() -> None:
    """Never rescan what start-up allocated (it lives as long as the process)."""
    gc.collect()
    gc.freeze()


def set_gc_thresholds() -> None:
    """Collect young objects rarely: each pass walks every object created since the last."""
    gc.set_threshold(*GC_THRESHOLDS)


def tune_gc() -> None:
    """Collect young objects rarely and never rescan what start-up allocated."""
    set_gc_thresholds()
    freeze_startup()
