"""Token buckets for frames per socket and per player, and chat lines per player.

A bucket holds up to `burst` tokens and regains `rate` per second; each event takes one. The
clock is passed in so tests don't sleep.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Bucket:
    burst: float
    rate: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        """Take one token if there is one; False means the event is over the limit."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Buckets:
    """One bucket per key (a player id), made with the same allowance on first use."""

    __slots__ = ("_burst", "_by_key", "_rate")

    def __init__(self, burst: float, rate: float) -> None:
        self._burst = burst
        self._rate = rate
        self._by_key: dict[str, Bucket] = {}

    def take(self, key: str, now: float) -> bool:
        bucket = self._by_key.get(key)
        if bucket is None:
            bucket = self._by_key[key] = Bucket(self._burst, self._rate)
        return bucket.take(now)

    def forget(self, key: str) -> None:
        self._by_key.pop(key, None)
