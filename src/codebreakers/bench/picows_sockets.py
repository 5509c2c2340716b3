"""Player sockets on picows (`codebreakers bench --client picows`), beside the websockets ones.

picows parses and frames WebSocket messages in Cython and calls a listener for each frame, so a
received text costs the load generator one callback and one UTF-8 decode, with no Python
protocol object in between. The load generator shares the two cores with the server, so what it
saves is CPU the server gets (docs/performance.md, "The transport: picows").

What differs from the websockets client (`sockets.py`): picows does not implement
permessage-deflate, so it never offers it (the servers under test turn it off anyway, so no
frame is compressed with either client); like it, it sends an Origin header, never pings and
answers the server's pings.
"""

from __future__ import annotations

import asyncio

from picows import WSCloseCode, WSFrame, WSListener, WSMsgType, WSTransport, ws_connect

from codebreakers.bench.client_limits import CONNECT_TIMEOUT_S, MAX_FRAME, FrameHandler
from codebreakers.bench.stats import Stats


class PicowsSocket(WSListener):
    """One WebSocket: text frames in go to `on_frame`; `send` writes a text frame out."""

    def __init__(self, on_frame: FrameHandler, stats: Stats) -> None:
        super().__init__()
        self.on_frame = on_frame
        self.stats = stats
        self.transport: WSTransport | None = None
        self._parts: list[bytes] = []
        self._in_text = False

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.transport = transport

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind is WSMsgType.TEXT:
            if frame.fin:
                self.on_frame(frame.get_payload_as_utf8_text())
            else:
                self._parts = [frame.get_payload_as_bytes()]
                self._in_text = True
        elif kind is WSMsgType.CONTINUATION and self._in_text:
            self._parts.append(frame.get_payload_as_bytes())
            if frame.fin:
                self._in_text = False
                self.on_frame(b"".join(self._parts).decode())
                self._parts = []
        elif kind is WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        self.stats.closed += 1

    def send(self, text: str) -> None:
        if self.transport is not None:
            self.transport.send(WSMsgType.TEXT, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_disconnected:
            self.transport.send_close(WSCloseCode.GOING_AWAY)
            self.transport.disconnect()


async def open_picows_socket(
    url: str, origin: str, on_frame: FrameHandler, stats: Stats
) -> PicowsSocket:
    """Connect and finish the handshake (the caller bounds how many run at once)."""
    _transport, listener = await asyncio.wait_for(
        ws_connect(
            lambda: PicowsSocket(on_frame, stats),
            url,
            extra_headers={"Origin": origin},
            websocket_handshake_timeout=CONNECT_TIMEOUT_S,
            max_frame_size=MAX_FRAME,
        ),
        CONNECT_TIMEOUT_S,
    )
    assert isinstance(listener, PicowsSocket)
    return listener
