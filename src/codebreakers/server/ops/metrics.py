"""What a node is doing, for Prometheus: `GET /metrics` in the text exposition format (0.0.4).

Served on a port of its own (`--metrics-port`, bound to `--metrics-host`, 127.0.0.1 by default;
off unless set), never on the game's port: the counters say how busy the site is and which
operations fail, which is the operator's business, and a separate listener needs no proxy rule
to hide it. The listener answers `GET /metrics` and nothing else, one request per connection,
its head within 10 s.

Hand-written rather than through `prometheus-client`: a node needs a handful of counters, one
histogram family and gauges read at scrape time, and its own registry per node (tests run
several nodes in one process), which is less code here than wiring the library's collectors.

Counts are kept where they happen without touching the game flow: every store call goes
through `InstrumentedStore` (latency, errors, append results: the node's actions), every
client message is timed around its handler (`handling`), and the rest (sockets, rooms, live
games, the bus's own `stats`) is read from the node when Prometheus asks.
"""

from __future__ import annotations

import asyncio
import logging
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable
from itertools import accumulate
from typing import TYPE_CHECKING, Any, cast

from codebreakers.server.errors import BUSY_DETAIL, Refused
from codebreakers.server.ops import process
from codebreakers.store.base import AppendResult, Store, StoreBusy

if TYPE_CHECKING:
    from codebreakers.server.cluster.node import Node

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: a store round trip is ~1 ms, an action with its pushes a few ms, a stall is seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
Labels = tuple[tuple[str, str], ...]


class Histogram:
    """Observations by bucket; `counts` sums them up the way Prometheus wants (each bucket
    counts observations <= its bound) when scraped, so observing is one increment."""

    __slots__ = ("_hits", "count", "total")

    def __init__(self) -> None:
        self._hits = [0] * (len(BUCKETS) + 1)  # the last: above every bound
        self.count = 0
        self.total = 0.0

    def observe(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        self._hits[bisect_left(BUCKETS, seconds)] += 1

    @property
    def counts(self) -> list[int]:
        return list(accumulate(self._hits[:-1]))


class Metrics:
    """One node's counters and histograms (label tuples -> values)."""

    def __init__(self) -> None:
        self.messages: dict[Labels, int] = {}
        self.message_seconds: dict[Labels, Histogram] = {}
        self.store_seconds: dict[Labels, Histogram] = {}
        self.store_errors: dict[Labels, int] = {}
        self.actions: dict[Labels, int] = {}
        self.catchups: dict[Labels, int] = {}

    @staticmethod
    def bump(family: dict[Labels, int], labels: Labels, by: int = 1) -> None:
        family[labels] = family.get(labels, 0) + by

    def handling(self, kind: str) -> _Handling:
        """Time one client message's handling; its outcome is ok, refused or error."""
        return _Handling(self, kind)

    def render(self, node: Node) -> str:
        """The exposition text, with the gauges read from the node now."""
        hubs = list(node.hubs.values())
        bus = node.ports.bus
        stats = bus.stats
        out: list[str] = []
        gauge = _family(out, "gauge")
        counter = _family(out, "counter")
        gauge(
            "codebreakers_connections",
            "WebSockets attached to rooms on this node",
            {(): sum(len(h.all_connections()) for h in hubs)},
        )
        gauge("codebreakers_rooms", "rooms held in this node's memory", {(): len(hubs)})
        gauge(
            "codebreakers_games_live",
            "running games held on this node",
            {(): sum(1 for h in hubs if h.runner is not None and not h.runner.over)},
        )
        counter(
            "codebreakers_messages_total",
            "client messages handled, by type and outcome",
            self.messages,
        )
        _histograms(
            out,
            "codebreakers_message_seconds",
            "time to handle a client message (type=act: a game action)",
            self.message_seconds,
        )
        counter(
            "codebreakers_actions_total",
            "game actions this node tried to store (players, bots, timeouts), by result",
            self.actions,
        )
        _histograms(
            out, "codebreakers_store_seconds", "store calls, by operation", self.store_seconds
        )
        counter(
            "codebreakers_store_errors_total",
            "store calls that raised, by operation",
            self.store_errors,
        )
        gauge("codebreakers_bus_healthy", "1 while the bus is connected", {(): int(bus.healthy)})
        counter(
            "codebreakers_bus_published_total", "notices handed to the bus", {(): stats.published}
        )
        counter(
            "codebreakers_bus_received_total", "notices heard from the bus", {(): stats.received}
        )
        counter(
            "codebreakers_bus_errors_total",
            "failed or dropped publishes, unreadable notices, listener failures",
            {(): stats.errors},
        )
        counter(
            "codebreakers_bus_reconnects_total",
            "times the bus subscribed again",
            {(): stats.reconnects},
        )
        counter(
            "codebreakers_catchups_total",
            "full reads of the held rooms from the store, by reason",
            self.catchups,
        )
        by_generation = {
            name: {(("generation", str(g)),): value for g, value in values.items()}
            for name, values in (
                ("passes", process.COLLECTOR.passes),
                ("seconds", process.COLLECTOR.seconds),
                ("longest", process.COLLECTOR.longest_s),
            )
        }
        counter(
            "codebreakers_gc_collections_total",
            "passes of the cyclic garbage collector on serve's schedule, by generation",
            by_generation["passes"],
        )
        counter("codebreakers_gc_seconds_total", "time spent in them", by_generation["seconds"])
        gauge("codebreakers_gc_longest_seconds", "the longest of them", by_generation["longest"])
        return "".join(out)


class _Handling:
    """The context of `Metrics.handling`: a plain class, since it wraps every client message
    (a generator-based context manager costs several times more)."""

    __slots__ = ("_kind", "_metrics", "_started")

    def __init__(self, metrics: Metrics, kind: str) -> None:
        self._metrics = metrics
        self._kind = kind
        self._started = 0.0

    def __enter__(self) -> None:
        self._started = time.perf_counter()

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        metrics = self._metrics
        if kind is None:
            outcome = "ok"
        elif issubclass(kind, Refused):
            outcome = "refused"
        else:
            outcome = "error"
        metrics.bump(metrics.messages, (("type", self._kind), ("outcome", outcome)))
        hist = metrics.message_seconds.get((("type", self._kind),))
        if hist is None:
            hist = metrics.message_seconds[(("type", self._kind),)] = Histogram()
        hist.observe(time.perf_counter() - self._started)


def _labels(labels: Labels, extra: str = "") -> str:
    parts = [f'{k}="{_escape(v)}"' for k, v in labels]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _family(out: list[str], kind: str) -> Callable[[str, str, dict[Labels, float]], None]:
    def write(name: str, help_text: str, values: dict[Labels, float]) -> None:
        out.append(f"# HELP {name} {help_text}\n# TYPE {name} {kind}\n")
        out.extend(f"{name}{_labels(labels)} {value}\n" for labels, value in values.items())

    return write


def _histograms(out: list[str], name: str, help_text: str, family: dict[Labels, Histogram]) -> None:
    out.append(f"# HELP {name} {help_text}\n# TYPE {name} histogram\n")
    for labels, hist in family.items():
        for bound, count in zip(BUCKETS, hist.counts, strict=True):
            le = f'le="{bound}"'
            out.append(f"{name}_bucket{_labels(labels, le)} {count}\n")
        inf = 'le="+Inf"'
        out.append(f"{name}_bucket{_labels(labels, inf)} {hist.count}\n")
        out.append(f"{name}_sum{_labels(labels)} {hist.total}\n")
        out.append(f"{name}_count{_labels(labels)} {hist.count}\n")


class InstrumentedStore:
    """Any store, with each call timed and its failures counted; append results become the
    `actions` counter. A call the store refused as overloaded (`StoreBusy`: nothing was run)
    becomes `Refused("busy")` here, where every store call of the server enters, so sockets,
    HTTP routes, bots and timers all meet one retryable refusal. Everything else about the store
    is passed through untouched."""

    def __init__(self, store: Store, metrics: Metrics) -> None:
        self._store = store
        self._metrics = metrics

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name in ("open", "close") or not callable(found):
            return found
        timed = self._timed(name, found)
        setattr(self, name, timed)  # looked up once per operation, not per call
        return timed

    @property
    def inner(self) -> Store:
        """The store itself (tests put doubles around its calls)."""
        return self._store

    def _timed(self, op: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        metrics = self._metrics
        labels = (("op", op),)
        hist = metrics.store_seconds.setdefault(labels, Histogram())

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                result = await call(*args, **kwargs)
            except StoreBusy:  # overloaded, not broken: whoever asked may ask again
                metrics.bump(metrics.store_errors, labels)
                log.warning("store busy: %s refused", op)
                raise Refused("busy", BUSY_DETAIL) from None
            except Exception:
                metrics.bump(metrics.store_errors, labels)
                raise
            finally:
                hist.observe(time.perf_counter() - started)
            if isinstance(result, AppendResult):
                metrics.bump(metrics.actions, (("result", result.name.lower()),))
            return result

        return timed


def instrument(store: Store, metrics: Metrics) -> Store:
    return cast(Store, InstrumentedStore(store, metrics))


HEAD_TIMEOUT_S = 10.0
MAX_HEAD_BYTES = 8 * 1024


async def serve_port(node: Node, host: str, port: int) -> asyncio.Server:
    """Listen for scrapes on `host:port`; the caller closes the server."""
    return await asyncio.start_server(
        lambda reader, writer: _answer(node, reader, writer), host, port, limit=MAX_HEAD_BYTES
    )


async def _answer(node: Node, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        method, path, *_ = [*head.split(b"\r\n", 1)[0].split(b" "), b"", b""]
        if method == b"GET" and path.partition(b"?")[0] == b"/metrics":
            status, kind, body = b"200 OK", CONTENT_TYPE, node.metrics.render(node).encode()
        else:
            status, kind, body = b"404 Not Found", "text/plain", b"GET /metrics only\n"
        writer.write(
            b"HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
            b"Connection: close\r\n\r\n%s" % (status, kind.encode(), len(body), body)
        )
        await writer.drain()
    except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
        pass  # a broken or slow scraper: nothing to answer
    finally:
        writer.close()
