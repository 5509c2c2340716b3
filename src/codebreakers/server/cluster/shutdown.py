"""A graceful stop: stop accepting, let the messages being handled finish, then say `bye`.

Without the wait, a player whose action was being stored as the node stopped would lose the
`ack` behind the `bye` (the action itself is safe either way: it is stored or not, and a retry
with the same id on another node is answered without applying it twice). With it, every
message the node started handling is answered before its socket is told to reconnect.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

import uvicorn

from codebreakers.server.ops.logs import get_logger

log = get_logger(__name__)

DRAIN_S = 10.0  # at most this long for in-flight messages (a store that hangs can't hold us)
FLUSH_S = 0.1  # for the sender tasks to put the `bye` frames on the wire
RETRY_MS = 1000  # when clients should come back (to another node, through the balancer)


class Stopping(Protocol):
    """What a graceful stop needs of the node (`cluster.node.Node`)."""

    draining: bool

    @property
    def in_flight(self) -> InFlight: ...

    def say_goodbye(self, retry_ms: int = ...) -> None: ...


class InFlight:
    """Counts the client messages being handled right now."""

    def __init__(self) -> None:
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def track(self) -> InFlight:
        """`with in_flight.track():` counts the block in; the counter is its own context, so
        no object is made per message (each in flight is walked by every young collection)."""
        return self

    def __enter__(self) -> None:
        self._busy += 1
        self._idle.clear()

    def __exit__(self, *exc: object) -> None:
        self._busy -= 1
        if not self._busy:
            self._idle.set()

    async def idle(self, timeout: float) -> bool:
        """Wait until nothing is being handled; False if `timeout` passed first."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


async def drain(server: uvicorn.Server, node: Stopping) -> None:
    """Stop taking connections, finish what is in flight, and tell every socket to go."""
    node.draining = True
    for listener in server.servers:
        listener.close()
    await settle(node)


async def settle(node: Stopping) -> None:
    """Finish what is in flight and tell every socket to go (granian stops accepting itself;
    under uvicorn `drain` did all this already, and a second call finds nothing to do)."""
    node.draining = True
    if not await node.in_flight.idle(DRAIN_S):
        log.warning("shutdown: messages still in flight; stopping anyway", waited_s=DRAIN_S)
    node.say_goodbye(RETRY_MS)
    await asyncio.sleep(FLUSH_S)
