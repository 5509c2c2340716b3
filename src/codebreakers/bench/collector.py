"""The game servers' young-generation collector passes during the measured window, read from
their `/metrics` (`codebreakers_gc_*`, serve's schedule) on the metrics port each node was
started with; the bare endpoint has none, nor a server given by `--url` (its port is unknown)."""

from __future__ import annotations

from typing import Any

import httpx

_YOUNG = '{generation="0"}'
_NAMES = {
    f"codebreakers_gc_collections_total{_YOUNG}": "passes",
    f"codebreakers_gc_seconds_total{_YOUNG}": "seconds",
}


def young_passes(urls: list[str]) -> dict[str, float] | None:
    """Passes and seconds so far, summed over the nodes; None if a node doesn't say."""
    total = {"passes": 0.0, "seconds": 0.0}
    for url in urls:
        try:
            text = httpx.get(f"{url.rstrip('/')}/metrics", timeout=10).text
        except httpx.HTTPError:
            return None
        found = 0
        for line in text.splitlines():
            name, _, value = line.rpartition(" ")
            if name in _NAMES:
                total[_NAMES[name]] += float(value)
                found += 1
        if found != len(_NAMES):
            return None
    return total


def window_report(
    before: dict[str, float] | None, after: dict[str, float] | None, span_s: float
) -> dict[str, Any] | None:
    """`server_gc`: young passes in the window, their time, and the share of the window."""
    if before is None or after is None:
        return None
    passes = int(after["passes"] - before["passes"])
    seconds = after["seconds"] - before["seconds"]
    return {
        "young_passes": passes,
        "seconds": round(seconds, 3),
        "mean_ms": round(seconds / passes * 1000, 1) if passes else None,
        "share_of_window": round(seconds / max(1e-9, span_s), 3),
    }
