"""Player sockets as a browser tab opens them, on websockets' sans-I/O protocol.

The load generator shares the machine's two cores with the server, so its sockets are lean: an
asyncio Protocol feeds received bytes to websockets' `ClientProtocol` and hands each text frame
straight to a callback; no task, future or queue per frame (websockets' asyncio client costs
several times more CPU per received frame, which then goes missing from the server).

Like a browser it sends an Origin header and offers permessage-deflate
(`CODEBREAKERS_BENCH_DEFLATE=0` stops offering it, to measure what compression costs); it never
pings (browsers don't), and answers the server's pings.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from urllib.parse import urlsplit

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import Origin
from websockets.uri import parse_uri

from codebreakers.bench.stats import Stats

CONNECT_TIMEOUT_S = 120.0
CONNECT_CONCURRENCY = 200
MAX_FRAME = 2**22
DEFLATE = os.environ.get("CODEBREAKERS_BENCH_DEFLATE", "1") != "0"

FrameHandler = Callable[[str], None]


class Shared:
    """What every table of one load generator shares: the counters and the handshake gate."""

    def __init__(self, urls: list[str], stats: Stats) -> None:
        self.urls = urls
        self.stats = stats
        self.gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    def url_for(self, player_index: int) -> str:
        """Players alternate between nodes, so a table's members sit on every node."""
        return self.urls[player_index % len(self.urls)]


class PlayerSocket(asyncio.Protocol):
    """One WebSocket: text frames in go to `on_frame`; `send` writes a text frame out."""

    def __init__(self, uri: str, origin: str, on_frame: FrameHandler, stats: Stats) -> None:
        extensions = enable_client_permessage_deflate(None) if DEFLATE else None
        self.ws = ClientProtocol(
            parse_uri(uri), origin=Origin(origin), extensions=extensions, max_size=MAX_FRAME
        )
        self.on_frame = on_frame
        self.stats = stats
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.WriteTransport | None = None
        self._parts: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a TCP transport (uvloop's too)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame):
                self._on_ws_frame(event)
            elif isinstance(event, Response) and not self.opened.done():
                if self.ws.handshake_exc is not None:
                    self.opened.set_exception(self.ws.handshake_exc)
                else:
                    self.opened.set_result(None)
        self._flush()

    def _on_ws_frame(self, frame: Frame) -> None:
        if frame.opcode is Opcode.TEXT and frame.fin:
            self.on_frame(frame.data.decode())
        elif frame.opcode in (Opcode.TEXT, Opcode.CONT):
            self._parts.append(frame.data)
            if frame.fin:
                self.on_frame(b"".join(self._parts).decode())
                self._parts.clear()

    def _flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)
            else:  # websockets asks for the TCP connection to be closed
                self.transport.close()
                return

    def send(self, text: str) -> None:
        self.ws.send_text(text.encode())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stats.closed += 1
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))

    def close(self) -> None:
        if self.ws.state is State.OPEN:
            self.ws.send_close(1001)
            self._flush()
        if self.transport is not None:
            self.transport.close()


def ws_url(http_url: str, path: str) -> str:
    """`http://host:port` + `/path` as the matching `ws://` URL."""
    parts = urlsplit(http_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}"


async def open_socket(
    http_url: str, path: str, shared: Shared, on_frame: FrameHandler
) -> PlayerSocket:
    """Connect, a bounded number of handshakes at a time so the listen backlog holds."""
    parts = urlsplit(http_url)
    origin = f"{parts.scheme}://{parts.netloc}"
    loop = asyncio.get_running_loop()
    async with shared.gate:
        _transport, sock = await asyncio.wait_for(
            loop.create_connection(
                lambda: PlayerSocket(ws_url(http_url, path), origin, on_frame, shared.stats),
                parts.hostname,
                parts.port,
            ),
            CONNECT_TIMEOUT_S,
        )
        await asyncio.wait_for(sock.opened, CONNECT_TIMEOUT_S)
    return sock
