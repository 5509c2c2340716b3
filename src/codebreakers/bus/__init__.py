"""'Room R changed' notifications: `open_bus(url)` picks the in-process bus (the default) or
Redis pub/sub behind the one `Bus` interface in `base.py`."""

from __future__ import annotations

from codebreakers.bus.base import Bus, BusStats, Notice
from codebreakers.bus.local import LocalBus


def open_bus(url: str | None) -> Bus:
    """None: in-process; redis:// or rediss://: Redis pub/sub. Call `await bus.start(...)`.

    The Redis client is an extra (codebreakers[redis]): imported only for a Redis URL."""
    if url is None:
        return LocalBus()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from codebreakers.bus.redis import RedisBus

        return RedisBus(url)
    raise ValueError(f"unsupported bus URL {url!r}: use redis://host:6379/0, or none")


__all__ = ["Bus", "BusStats", "Notice", "open_bus"]
