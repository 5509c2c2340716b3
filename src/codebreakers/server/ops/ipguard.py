"""Limits per client address: open sockets, new sockets, frames, new rooms and new profiles.

The per-socket frame bucket and the per-player chat bucket stop one tab; these stop one machine
that opens many tabs (or scripts). Each limit is off when set to 0, which the load benchmark
needs: its ten thousand players all come from 127.0.0.1. Behind a reverse proxy the address is
the one the proxy forwards (`--trusted-proxies`, server/ops/proxies.py), or every player would
share the proxy's; no proxy is trusted unless named, so a client's own `X-Forwarded-For` counts
for nothing.

The table holds an entry per address seen lately; entries with no open socket whose buckets
have refilled are swept, so it stays as large as the set of recently active addresses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.ops.ratelimit import Bucket

SWEEP_EVERY = 1024  # new addresses between sweeps of idle ones


# How `ip_limits` shapes the three settings into buckets (fixed, not settings of their own).
CONNECTS_PER_S = 4.0  # new sockets per second once the burst (the socket cap) is spent
FRAME_BURST_S = 5  # seconds' worth of frames an address may send at once
ROOM_BURST = 20.0  # rooms made at once before the per-minute rate holds
# Profiles made by first visits without a known cookie: a classroom behind one NAT arriving
# together fits in the burst, then one a second.
PROFILE_BURST = 60.0
PROFILES_PER_S = 1.0


@dataclass(frozen=True, slots=True)
class IpLimits:
    """Per-address allowances; 0 turns a limit off, and a limit not given is off.

    The defaults `codebreakers serve` uses are the settings' (server/ops/settings.py,
    `Settings().ip_limits()`), the one place they are written.
    """

    sockets: int = 0  # open at once
    connect_burst: float = 0.0  # new sockets at once ...
    connects_per_s: float = 0.0  # ... then per second
    frame_burst: float = 0.0  # frames from all the address's sockets at once ...
    frames_per_s: float = 0.0  # ... then per second
    room_burst: float = 0.0  # rooms made over HTTP (create, play now, quick join) at once ...
    rooms_per_s: float = 0.0  # ... then per second
    profile_burst: float = 0.0  # profiles made by first visits (GET /api/me) at once ...
    profiles_per_s: float = 0.0  # ... then per second


def ip_limits(sockets: int, frames_per_s: float, rooms_per_min: float) -> IpLimits:
    """The allowances `codebreakers serve` is given (0 turns one off); bursts scale with them."""
    return IpLimits(
        sockets=sockets,
        connect_burst=sockets,
        connects_per_s=CONNECTS_PER_S if sockets else 0,
        frame_burst=FRAME_BURST_S * frames_per_s,
        frames_per_s=frames_per_s,
        room_burst=ROOM_BURST if rooms_per_min else 0,
        rooms_per_s=rooms_per_min / 60,
        # Made with the rooms' setting: a load generator turning that off makes profiles too.
        profile_burst=PROFILE_BURST if rooms_per_min else 0,
        profiles_per_s=PROFILES_PER_S if rooms_per_min else 0,
    )


OFF = IpLimits()
# `codebreakers serve`'s environment for OFF: load generators and campaigns run every player
# from 127.0.0.1 (the abuse campaign keeps the limits, since it measures them).
OFF_ENV = {
    "CODEBREAKERS_PER_IP_SOCKETS": "0",
    "CODEBREAKERS_PER_IP_FRAMES_PER_S": "0",
    "CODEBREAKERS_PER_IP_ROOMS_PER_MIN": "0",
}


def _bucket(burst: float, rate: float) -> Bucket | None:
    return Bucket(burst, rate) if burst > 0 else None


@dataclass(slots=True)
class _Address:
    connects: Bucket | None
    frames: Bucket | None
    rooms: Bucket | None
    profiles: Bucket | None
    sockets: int = 0
    pending: int = 0  # connections still sending their request (server/wire/protocols.py)
    last_seen: float = 0.0


@dataclass
class IpGuard:
    limits: IpLimits
    clock: Callable[[], float]
    _table: dict[str, _Address] = field(default_factory=dict)
    _new: int = 0

    def admit(self, address: str) -> None:
        """Count a new socket from `address`; Refused when the address has too many."""
        if not (self.limits.sockets or self.limits.connect_burst):
            return  # nothing to count: the table stays empty
        entry = self._entry(address)
        cap = self.limits.sockets
        if cap and entry.sockets + entry.pending >= cap:
            raise Refused(ErrorCode.TOO_MANY_CONNECTIONS, f"at most {cap} open sockets per address")
        if entry.connects is not None and not entry.connects.take(entry.last_seen):
            raise Refused(ErrorCode.TOO_MANY_CONNECTIONS, "too many new sockets; wait a little")
        entry.sockets += 1

    def admit_pending(self, address: str) -> bool:
        """Count a connection from `address` that has not finished its request yet (an
        upgrade on its way, a page being fetched); False when the address already has as many
        as its open-socket cap. They count against that cap in `admit` too, so half-sent
        handshakes cannot pile up beside the open sockets; a connection over the cap only
        because of open sockets still goes through, to be told `too_many_connections`."""
        cap = self.limits.sockets
        if not cap:
            return True
        entry = self._entry(address)
        if entry.pending >= cap:
            return False
        entry.pending += 1
        return True

    def release_pending(self, address: str) -> None:
        """A connection counted by `admit_pending` finished its request or closed."""
        entry = self._table.get(address)
        if entry is not None and entry.pending > 0:
            entry.pending -= 1
            entry.last_seen = self.clock()

    def release(self, address: str) -> None:
        """A socket admitted from `address` closed."""
        entry = self._table.get(address)
        if entry is not None and entry.sockets > 0:
            entry.sockets -= 1
            entry.last_seen = self.clock()

    def frame(self, address: str) -> None:
        """Refused when the address's sockets together send faster than allowed."""
        if self.limits.frame_burst <= 0:
            return  # off: nothing on this per-frame path
        entry = self._entry(address)
        if entry.frames is not None and not entry.frames.take(entry.last_seen):
            raise Refused(ErrorCode.RATE_LIMITED, "too many frames from your address; slow down")

    def new_room(self, address: str) -> None:
        """Refused when the address makes rooms faster than allowed."""
        if self.limits.room_burst <= 0:
            return
        entry = self._entry(address)
        if entry.rooms is not None and not entry.rooms.take(entry.last_seen):
            raise Refused(
                ErrorCode.RATE_LIMITED, "too many new rooms from your address; wait a little"
            )

    def new_profile(self, address: str) -> None:
        """Refused when the address makes profiles (first visits) faster than allowed."""
        if self.limits.profile_burst <= 0:
            return
        entry = self._entry(address)
        if entry.profiles is not None and not entry.profiles.take(entry.last_seen):
            raise Refused(
                ErrorCode.RATE_LIMITED, "too many new visitors from your address; wait a little"
            )

    def tracked(self) -> int:
        """Addresses in the table (for tests and metrics)."""
        return len(self._table)

    def _entry(self, address: str) -> _Address:
        now = self.clock()
        entry = self._table.get(address)
        if entry is None:
            self._new += 1
            if self._new % SWEEP_EVERY == 0:
                self._sweep(now)
            limits = self.limits
            entry = self._table[address] = _Address(
                _bucket(limits.connect_burst, limits.connects_per_s),
                _bucket(limits.frame_burst, limits.frames_per_s),
                _bucket(limits.room_burst, limits.rooms_per_s),
                _bucket(limits.profile_burst, limits.profiles_per_s),
            )
        entry.last_seen = now
        return entry

    def _sweep(self, now: float) -> None:
        """Forget addresses with no socket open whose every bucket is full again by now."""
        idle = [
            a
            for a, e in self._table.items()
            if e.sockets == 0 and e.pending == 0 and self._refilled(e, now)
        ]
        for address in idle:
            del self._table[address]

    def _refilled(self, entry: _Address, now: float) -> bool:
        limits = self.limits
        pairs = (
            (limits.connect_burst, limits.connects_per_s),
            (limits.frame_burst, limits.frames_per_s),
            (limits.room_burst, limits.rooms_per_s),
            (limits.profile_burst, limits.profiles_per_s),
        )
        waits = [burst / rate for burst, rate in pairs if burst > 0 and rate > 0]
        return now - entry.last_seen >= max(waits, default=0.0)
