"""`GET /readyz`: may a load balancer send players to this node now?

`/healthz` stays the liveness probe (the process answers: restart it only if that fails). Ready
asks more: the node is not draining, its store answers a trivial read within READY_TIMEOUT_S,
and, when the bus is shared (Redis), it is subscribed. A node whose database is down would take
every action a player sends and answer `internal_error`; one that lost Redis still serves
correctly by polling the store, but late by up to a second, so a balancer with other nodes does
better sending players there. The body names what failed, for the operator reading it.
"""

from __future__ import annotations

import asyncio

from codebreakers.server.cluster.node import Node
from codebreakers.server.ops.logs import get_logger
from codebreakers.server.ops.metrics import InstrumentedStore

log = get_logger(__name__)
READY_TIMEOUT_S = 2.0
PROBE_ROOM = "ready-probe"  # never a room code (those are 6 signs, no hyphen, no 0/O/1/I)


async def _store_answers(node: Node) -> str:
    """ "ok", "timeout" or "error": a read of a room's head that finds nothing. The store itself,
    not its instrumented face: probes are not players' store calls in /metrics."""
    store = node.ports.store
    inner = store.inner if isinstance(store, InstrumentedStore) else store
    try:
        await asyncio.wait_for(inner.room_head(PROBE_ROOM, None), READY_TIMEOUT_S)
    except TimeoutError:
        return "timeout"
    except Exception as exc:  # any failure of the database is "not ready", named in the log
        log.warning("readiness: the store failed", error=str(exc))
        return "error"
    return "ok"


async def check(node: Node) -> tuple[bool, dict[str, str]]:
    """(ready, {"store": ..., "bus": ..., "draining": ...}): every part and how it is."""
    bus = node.ports.bus
    parts = {
        "store": await _store_answers(node),
        "bus": ("ok" if bus.healthy else "disconnected") if bus.shared else "local",
        "draining": "yes" if node.draining else "no",
    }
    ready = parts["store"] == "ok" and parts["bus"] != "disconnected" and not node.draining
    return ready, parts
