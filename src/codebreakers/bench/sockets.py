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
from typing import Protocol
from urllib.parse import urlsplit

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.typing import BytesLike, Origin
from websockets.uri import parse_uri

from codebreakers.bench.client_limits import CONNECT_TIMEOUT_S, MAX_FRAME, FrameHandler
from codebreakers.bench.stats import Stats

CONNECT_CONCURRENCY = 200
DEFLATE = os.environ.get("CODEBREAKERS_BENCH_DEFLATE", "1") != "0"


CLIENTS = ("websockets", "picows")
PLACEMENTS = ("split", "tables")
SEATS = 6


class Shared:
    """What every table of one load generator shares: the counters, the handshake gate, which
    client library its sockets use and how its players are placed on the nodes."""

    def __init__(
        self,
        urls: list[str],
        stats: Stats,
        *,
        client: str = "websockets",
        placement: str = "split",
        seats: int = SEATS,
    ) -> None:
        if client not in CLIENTS or placement not in PLACEMENTS:
            raise ValueError(f"client {client!r} or placement {placement!r} unknown")
        self.urls = urls
        self.stats = stats
        self.client = client
        self.placement = placement
        self.seats = seats
        self.gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    def url_for(self, player_index: int) -> str:
        """The node of a player (players are numbered table by table, `seats` to a table).

        `split`: players alternate between nodes, so a table's members sit on every node and
        every action crosses the bus. `tables`: a whole table sits on one node and tables
        alternate, as a load balancer that routes by room would place them."""
        if self.placement == "tables":
            return self.urls[(player_index // self.seats) % len(self.urls)]
        return self.urls[player_index % len(self.urls)]

    def nodes_of_table(self, first_player: int) -> int:
        """How many nodes the table whose first player is `first_player` spans."""
        return len({self.url_for(first_player + seat) for seat in range(self.seats)})


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
        self._parts: list[BytesLike] = []

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
            self.on_frame(str(frame.data, "utf-8"))  # any bytes-like, as websockets types it
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


def _origin(http_url: str) -> str:
    parts = urlsplit(http_url)
    return f"{parts.scheme}://{parts.netloc}"


def ws_url(http_url: str, path: str) -> str:
    """`http://host:port` + `/path` as the matching `ws://` URL."""
    parts = urlsplit(http_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}"


class BenchSocket(Protocol):
    """What a table needs of a player's socket, whichever client library is under it."""

    def send(self, text: str) -> None: ...

    def close(self) -> None: ...


async def open_socket(
    http_url: str, path: str, shared: Shared, on_frame: FrameHandler
) -> BenchSocket:
    """Connect, a bounded number of handshakes at a time so the listen backlog holds."""
    if shared.client == "picows":
        from codebreakers.bench.picows_sockets import open_picows_socket

        async with shared.gate:
            return await open_picows_socket(
                ws_url(http_url, path), _origin(http_url), on_frame, shared.stats
            )
    parts = urlsplit(http_url)
    if parts.hostname is None or parts.port is None:
        raise ValueError(f"{http_url}: the bench connects to an explicit host:port")
    host, port = parts.hostname, parts.port
    origin = _origin(http_url)
    loop = asyncio.get_running_loop()
    async with shared.gate:
        _transport, sock = await asyncio.wait_for(
            loop.create_connection(
                lambda: PlayerSocket(ws_url(http_url, path), origin, on_frame, shared.stats),
                host,
                port,
            ),
            CONNECT_TIMEOUT_S,
        )
        await asyncio.wait_for(sock.opened, CONNECT_TIMEOUT_S)
    return sock
