"""Redis's own cost during the measured window: its CPU, the notices published and delivered.

The capacity model (docs/deployment.md) needs what one action costs the bus beside what it
costs a node and PostgreSQL. Redis reports all of it itself, so unlike PostgreSQL's nothing is
matched by process: `INFO cpu` (the server's user + system CPU seconds, every thread),
`INFO commandstats` (PUBLISH calls) and `INFO stats` (`total_net_output_bytes`), read before and
after the window, and `PUBSUB NUMSUB` of the nodes' channel for the fan-out (each published
notice is written to every subscriber: one per node). They are the whole server's: another client
of the same Redis during the window is counted too (use a Redis of the bench's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RedisSample:
    cpu_s: float
    publishes: int
    output_bytes: int
    subscribers: int


def sample(url: str) -> RedisSample | None:
    """Redis's counters now; None when it cannot be asked (no figure beats a failed run)."""
    try:
        from redis import Redis  # an extra: imported only when a Redis is measured

        from codebreakers.bus.redis import CHANNEL

        client = Redis.from_url(url, socket_timeout=5)
        try:
            cpu = client.info("cpu")
            publish = client.info("commandstats").get("cmdstat_publish", {})
            stats = client.info("stats")
            numsub = client.pubsub_numsub(CHANNEL)
        finally:
            client.close()
    except Exception:
        return None
    return RedisSample(
        cpu_s=float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        publishes=int(publish.get("calls", 0)),
        output_bytes=int(stats["total_net_output_bytes"]),
        subscribers=int(numsub[0][1]) if numsub else 0,
    )


def window_report(
    before: RedisSample, after: RedisSample, span_s: float, actions_per_s: float
) -> dict[str, Any]:
    """`redis`: cores used in the window, per action, per published notice and per delivery
    (a notice written to one subscriber), and the bytes Redis sent per second."""
    span = max(1e-9, span_s)
    cores = (after.cpu_s - before.cpu_s) / span
    published = (after.publishes - before.publishes) / span
    delivered = published * after.subscribers
    return {
        "cpu": round(cores, 4),
        "cpu_ms_per_action": round(cores * 1000 / actions_per_s, 4) if actions_per_s else None,
        "publishes_per_s": round(published, 1),
        "subscribers": after.subscribers,
        "cpu_us_per_publish": round(cores * 1e6 / published, 2) if published else None,
        "cpu_us_per_delivery": round(cores * 1e6 / delivered, 2) if delivered else None,
        "output_bytes_per_s": round((after.output_bytes - before.output_bytes) / span),
    }
