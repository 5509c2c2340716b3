"""What a node is doing, for Prometheus: `GET /metrics` in the text exposition format (0.0.4).

Served on a port of its own (`--metrics-port`, bound to `--metrics-host`, 127.0.0.1 by default;
off unless set), never on the game's port: the counters say how busy the site is and which
operations fail, which is the operator's business, and a separate listener needs no proxy rule
to hide it. The listener answers `GET /metrics` and nothing else, one request per connection,
its head within 10 s.

The figures are `prometheus-client` metrics in a `CollectorRegistry` of the node's own, never
the library's global one: tests run several nodes in one process, and each must count only
its own. Counts are kept where they happen without touching the game flow: every store call
goes through `InstrumentedStore` (latency, errors, append results: the node's actions), every
client message is timed around its handler (`handling`), and what the node holds (sockets,
rooms, live games), the bus's own `stats` and the collector's passes are read when Prometheus
asks, by `HeldCollector` from a function the node hands it: nothing here knows a room hub.

Instrumentation only counts: what a failing store call means for the caller (a `busy`
refusal for `StoreBusy`) is decided where the server answers (the socket loop, the HTTP
error handler, the retries of bots and timers), so it holds with or without this wrapper.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric

from codebreakers.bus.base import BusStats
from codebreakers.server.errors import Refused
from codebreakers.server.ops import process
from codebreakers.store.base import AppendResult, Store, StoreBusy

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4  # what generate_latest writes
# Seconds: a store round trip is ~1 ms, an action with its pushes a few ms, a stall is seconds.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

# No `<name>_created` series beside each counter and histogram: the exposition keeps the series
# docs/deployment.md lists. (A switch of the library's, for the whole process.)
prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]


@dataclass(frozen=True, slots=True)
class HeldCounts:
    """What a node holds in memory, counted when Prometheus asks."""

    connections: int  # WebSockets attached to rooms
    rooms: int
    games_live: int  # running games


class BusCounts(Protocol):
    """What /metrics reads of the bus (`bus.base.Bus` has it)."""

    @property
    def healthy(self) -> bool: ...

    @property
    def stats(self) -> BusStats: ...


class HeldCollector:
    """The figures read at scrape time: what `held()` counts now (the node's sockets, rooms and
    live games), the bus's own counts, the collector's passes."""

    def __init__(self, held: Callable[[], HeldCounts], bus: BusCounts) -> None:
        self._held = held
        self._bus = bus

    def collect(self) -> Iterator[Metric]:
        held = self._held()
        yield GaugeMetricFamily(
            "codebreakers_connections",
            "WebSockets attached to rooms on this node",
            value=held.connections,
        )
        yield GaugeMetricFamily(
            "codebreakers_rooms", "rooms held in this node's memory", value=held.rooms
        )
        yield GaugeMetricFamily(
            "codebreakers_games_live", "running games held on this node", value=held.games_live
        )
        bus, stats = self._bus, self._bus.stats
        yield GaugeMetricFamily(
            "codebreakers_bus_healthy", "1 while the bus is connected", value=int(bus.healthy)
        )
        for name, help_text, value in (
            ("published", "notices handed to the bus", stats.published),
            ("received", "notices heard from the bus", stats.received),
            (
                "errors",
                "failed or dropped publishes, unreadable notices, listener failures",
                stats.errors,
            ),
            ("reconnects", "times the bus subscribed again", stats.reconnects),
        ):
            yield CounterMetricFamily(f"codebreakers_bus_{name}", help_text, value=value)
        gc = process.COLLECTOR  # looked up now: tests put their own in its place
        yield _by_generation(
            CounterMetricFamily(
                "codebreakers_gc_collections",
                "passes of the cyclic garbage collector on serve's schedule, by generation",
                labels=("generation",),
            ),
            gc.passes,
        )
        yield _by_generation(
            CounterMetricFamily(
                "codebreakers_gc_seconds", "time spent in them", labels=("generation",)
            ),
            gc.seconds,
        )
        yield _by_generation(
            GaugeMetricFamily(
                "codebreakers_gc_longest_seconds", "the longest of them", labels=("generation",)
            ),
            gc.longest_s,
        )


def _by_generation(
    family: CounterMetricFamily | GaugeMetricFamily, values: Mapping[int, float]
) -> Metric:
    for generation, value in values.items():
        family.add_metric((str(generation),), value)
    return family


class Metrics:
    """One node's metrics, in a registry of its own."""

    def __init__(self, held: Callable[[], HeldCounts], bus: BusCounts) -> None:
        self.registry = registry = CollectorRegistry()
        self.messages = Counter(
            "codebreakers_messages",
            "client messages handled, by type and outcome",
            ("type", "outcome"),
            registry=registry,
        )
        self.message_seconds = Histogram(
            "codebreakers_message_seconds",
            "time to handle a client message (type=act: a game action)",
            ("type",),
            buckets=BUCKETS,
            registry=registry,
        )
        self.actions = Counter(
            "codebreakers_actions",
            "game actions this node tried to store (players, bots, timeouts), by result",
            ("result",),
            registry=registry,
        )
        self.store_seconds = Histogram(
            "codebreakers_store_seconds",
            "store calls, by operation",
            ("op",),
            buckets=BUCKETS,
            registry=registry,
        )
        self.store_errors = Counter(
            "codebreakers_store_errors",
            "store calls that raised, by operation",
            ("op",),
            registry=registry,
        )
        self.catchups = Counter(
            "codebreakers_catchups",
            "full reads of the held rooms from the store, by reason",
            ("reason",),
            registry=registry,
        )
        self.notices = Counter(
            "codebreakers_notices",
            "bus notices for rooms this node holds, by how their news came: nothing (had it),"
            " carried (from the notice alone), store (read from the store)",
            ("took",),
            registry=registry,
        )
        registry.register(HeldCollector(held, bus))
        # Children by label values, made on first use: `labels()` per message costs more than
        # the count itself.
        self._outcomes: dict[tuple[str, str], Counter] = {}
        self._durations: dict[str, Histogram] = {}
        self._took: dict[str, Counter] = {}

    def handling(self, kind: str) -> _Handling:
        """Time one client message's handling; its outcome is ok, refused or error."""
        return _Handling(self, kind)

    def handled(self, kind: str, outcome: str, seconds: float) -> None:
        counted = self._outcomes.get((kind, outcome))
        if counted is None:
            counted = self._outcomes[(kind, outcome)] = self.messages.labels(kind, outcome)
        counted.inc()
        timed = self._durations.get(kind)
        if timed is None:
            timed = self._durations[kind] = self.message_seconds.labels(kind)
        timed.observe(seconds)

    def noticed(self, took: str) -> None:
        """One bus notice for a held room handled; `took` says how its news came."""
        counted = self._took.get(took)
        if counted is None:
            counted = self._took[took] = self.notices.labels(took)
        counted.inc()

    def caught_up(self, reason: str) -> None:
        """One pass over the held rooms reading the store's news (`poll`, `recovered`, `sweep`)."""
        self.catchups.labels(reason).inc()

    def render(self) -> bytes:
        """The exposition text, with the figures read from the node now."""
        return generate_latest(self.registry)


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
        if kind is None:
            outcome = "ok"
        elif issubclass(kind, (Refused, StoreBusy)):  # StoreBusy: answered `busy`
            outcome = "refused"
        else:
            outcome = "error"
        self._metrics.handled(self._kind, outcome, time.perf_counter() - self._started)


class InstrumentedStore:
    """Any store, with each call timed and its failures counted; append results become the
    `actions` counter. Everything about the store, its exceptions included, is passed through
    untouched."""

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
        duration = metrics.store_seconds.labels(op)
        results: dict[AppendResult, Counter] = {}

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                result = await call(*args, **kwargs)
            except Exception:
                # Made on the first failure: no series until an operation has failed.
                metrics.store_errors.labels(op).inc()
                raise
            finally:
                duration.observe(time.perf_counter() - started)
            if isinstance(result, AppendResult):
                counted = results.get(result)
                if counted is None:
                    counted = results[result] = metrics.actions.labels(result.name.lower())
                counted.inc()
            return result

        return timed


def instrument(store: Store, metrics: Metrics) -> Store:
    return cast(Store, InstrumentedStore(store, metrics))


HEAD_TIMEOUT_S = 10.0
MAX_HEAD_BYTES = 8 * 1024


async def serve_port(metrics: Metrics, host: str, port: int) -> asyncio.Server:
    """Listen for scrapes of `metrics` on `host:port`; the caller closes the server."""
    return await asyncio.start_server(
        lambda reader, writer: _answer(metrics, reader, writer), host, port, limit=MAX_HEAD_BYTES
    )


async def _answer(
    metrics: Metrics, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        method, path, *_ = [*head.split(b"\r\n", 1)[0].split(b" "), b"", b""]
        if method == b"GET" and path.partition(b"?")[0] == b"/metrics":
            status, kind, body = b"200 OK", CONTENT_TYPE, metrics.render()
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
