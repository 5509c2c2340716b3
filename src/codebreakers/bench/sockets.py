"""Opening player sockets the way a browser tab does, and draining them cheaply.

Browsers offer permessage-deflate and send an Origin header, so the load generator does too
(`CODEBREAKERS_BENCH_DEFLATE=0` stops offering deflate, to measure what compression costs);
it never pings (browsers don't), it only answers the server's pings.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from codebreakers.bench.stats import Stats

CONNECT_TIMEOUT_S = 120.0
CONNECT_CONCURRENCY = 200
DEFLATE = os.environ.get("CODEBREAKERS_BENCH_DEFLATE", "1") != "0"


class Shared:
    """What every table of one load generator shares: the counters and the handshake gate."""

    def __init__(self, urls: list[str], stats: Stats) -> None:
        self.urls = urls
        self.stats = stats
        self.gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    def url_for(self, player_index: int) -> str:
        """Players alternate between nodes, so a table's members sit on every node."""
        return self.urls[player_index % len(self.urls)]


def ws_url(http_url: str, path: str) -> str:
    """`http://host:port` + `/path` as the matching `ws://` URL."""
    parts = urlsplit(http_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}"


async def open_socket(http_url: str, path: str, shared: Shared) -> ClientConnection:
    """Connect, a bounded number of handshakes at a time so the listen backlog holds."""
    parts = urlsplit(http_url)
    async with shared.gate:
        return await connect(
            ws_url(http_url, path),
            origin=f"{parts.scheme}://{parts.netloc}",  # type: ignore[arg-type]
            ping_interval=None,
            open_timeout=CONNECT_TIMEOUT_S,
            close_timeout=2.0,
            max_size=2**22,
            compression="deflate" if DEFLATE else None,
        )


async def drain(ws: ClientConnection, on_frame: Callable[[str], None], stats: Stats) -> None:
    """Feed every text frame to `on_frame` until the socket closes."""
    try:
        async for frame in ws:
            if isinstance(frame, str):
                on_frame(frame)
    except ConnectionClosed:
        pass
    stats.closed += 1
