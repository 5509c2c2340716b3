"""What the load generator counts while it measures, and how it sums that up.

Counting is a few integer additions per frame so that the load generator, which shares the two
cores with the server, spends its time on sockets rather than on bookkeeping.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


def percentile(ordered: list[float], q: float) -> float:
    """The value below which a fraction `q` of `ordered` (sorted ascending) lies."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass(slots=True)
class Stats:
    measuring: bool = False
    started: float = 0.0
    stopped: float = 0.0
    actions: int = 0
    pushes: int = 0
    push_bytes: int = 0
    incomplete: int = 0
    closed: int = 0
    latencies: list[float] = field(default_factory=list)
    latency_by_kind: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def start(self) -> None:
        self.measuring = True
        self.started = time.perf_counter()

    def stop(self) -> None:
        self.measuring = False
        self.stopped = time.perf_counter()

    def push(self, frame: str) -> None:
        if self.measuring:
            self.pushes += 1
            self.push_bytes += len(frame)

    def action_done(self, kind: str, seconds: float) -> None:
        self.latencies.append(seconds)
        self.latency_by_kind.setdefault(kind, []).append(seconds)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def summary(self) -> dict[str, Any]:
        elapsed = max(1e-9, (self.stopped or time.perf_counter()) - self.started)
        ordered = sorted(self.latencies)
        return {
            "measured_s": round(elapsed, 3),
            "actions": self.actions,
            "actions_per_s": round(self.actions / elapsed, 1),
            "pushes_per_s": round(self.pushes / elapsed, 1),
            "push_bytes_avg": round(self.push_bytes / self.pushes) if self.pushes else 0,
            "latency_ms": _latency_ms(ordered),
            "latency_ms_by_kind": {
                kind: _latency_ms(sorted(values))
                for kind, values in sorted(self.latency_by_kind.items())
            },
            "incomplete_actions": self.incomplete,
            "connections_closed": self.closed,
            "errors": dict(sorted(self.errors.items())),
        }


def _latency_ms(ordered: list[float]) -> dict[str, float]:
    return {
        "count": len(ordered),
        "p50": round(percentile(ordered, 0.50) * 1000, 2),
        "p95": round(percentile(ordered, 0.95) * 1000, 2),
        "p99": round(percentile(ordered, 0.99) * 1000, 2),
        "max": round((ordered[-1] if ordered else 0.0) * 1000, 2),
    }
