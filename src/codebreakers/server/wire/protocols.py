"""Text frames written straight to a uvicorn socket: the hot path of every push.

Through the ASGI interface each push costs, per socket, a coroutine through Starlette and
uvicorn, a copy from bytes to str and back, and websockets' frame objects, for what is on the
wire a header of 2 to 10 bytes before the payload (a server's frames are not masked).
`DirectWriteProtocol` is uvicorn's sans-I/O WebSocket protocol, unchanged, plus a synchronous
writer of such frames offered to the app in the scope's extensions under `WRITE_TEXT` (and
`WRITE_TEXTS`, several frames in one write: one system call and one packet). It writes
only while the socket is open, its transport below the high-water mark and no extension
(permessage-deflate, which `serve` turns off) changes the framing, and says so: for anything
else (a client reading slowly, a closing socket, a server without the writer such as granian)
the caller sends the ordinary ASGI way, which waits and raises as uvicorn does.
docs/performance.md has the measurements.

The same two protocols bound slow clients, which uvicorn leaves unbounded: a request (an
upgrade's handshake, a page's request) must arrive whole within HEAD_TIMEOUT_S of its first byte
(`GuardedHttpProtocol`), and a WebSocket frame within FRAME_TIMEOUT_S of its first byte, or the
connection is closed; and a connection still sending its request counts against its address's
open-socket cap (server/ops/ipguard.py `admit_pending`: at most as many such requests as the cap).
Both lean on the libraries' internals (uvicorn's parser callbacks, websockets' reader buffer
and event list), pinned to one version and run for real by tests/server/test_slow_clients.py
and tests/server/test_wire.py.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import Protocol, State

from codebreakers.server.ops.ipguard import IpGuard
from codebreakers.server.ops.proxies import TrustedProxies

WRITE_TEXT = "codebreakers.write_text"
WRITE_TEXTS = "codebreakers.write_texts"

_OPEN = State.OPEN
_FIN_TEXT = 0x81  # FIN bit and the text opcode: one whole, unfragmented text message
_TWO_BYTE_LENGTH = 126
_EIGHT_BYTE_LENGTH = 127
HEAD_TIMEOUT_S = 10.0  # a request, from its first byte to its last (a mobile link manages)
FRAME_TIMEOUT_S = 10.0  # a frame (at most 1 MiB), from its first byte to its last
MAX_HEAD_BYTES = 64 * 1024  # a request's URL and headers (httptools itself takes any length)
SLOW_FRAME_CLOSE = 1008  # policy violation


_SHORT_HEADER = struct.Struct("!BB").pack
_TWO_BYTE_HEADER = struct.Struct("!BBH").pack
_EIGHT_BYTE_HEADER = struct.Struct("!BBQ").pack


def text_frame(payload: bytes) -> bytes:
    """One unmasked, unfragmented text frame carrying `payload` (RFC 6455, section 5.2)."""
    size = len(payload)
    if size < _TWO_BYTE_LENGTH:
        return _SHORT_HEADER(_FIN_TEXT, size) + payload
    if size <= 0xFFFF:
        return _TWO_BYTE_HEADER(_FIN_TEXT, _TWO_BYTE_LENGTH, size) + payload
    return _EIGHT_BYTE_HEADER(_FIN_TEXT, _EIGHT_BYTE_LENGTH, size) + payload


def frames_completed(conn: Protocol) -> bool:
    """Whether the data just received completed any frame (read before uvicorn takes them)."""
    return bool(conn.events)


def frame_started(conn: Protocol) -> bool:
    """Whether bytes of a frame not yet complete are waiting in the parser's buffer."""
    return bool(conn.reader.buffer)


class DirectWriteProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol; the app finds `write_text_now` in its scope's extensions.
    A frame that takes longer than `frame_timeout_s` to arrive closes the socket (1008)."""

    frame_timeout_s = FRAME_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._frame_timer: asyncio.TimerHandle | None = None
        self._completed = False

    def handle_events(self) -> None:
        self._completed = frames_completed(self.conn)
        super().handle_events()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._completed:  # the clock runs from the first byte of the frame still coming
            self._stop_frame_clock()
            if not frame_started(self.conn):
                return
        if self._frame_timer is None and not self.transport.is_closing():
            self._frame_timer = self.loop.call_later(self.frame_timeout_s, self._frame_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_frame_clock()
        super().connection_lost(exc)

    def _stop_frame_clock(self) -> None:
        if self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None

    def _frame_too_slow(self) -> None:
        self._frame_timer = None
        if self.conn.state is _OPEN:
            self.conn.send_close(SLOW_FRAME_CLOSE, "a frame took too long to arrive")
            self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # else no scope: the request was answered already
            extensions = self.scope["extensions"]
            extensions[WRITE_TEXT] = self.write_text_now  # type: ignore[assignment]
            extensions[WRITE_TEXTS] = self.write_texts_now  # type: ignore[assignment]

    def _writes_now(self) -> bool:
        """Open, keeping up, and framing untouched by any extension."""
        return not (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not _OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        )

    def write_text_now(self, payload: bytes) -> bool:
        """Write one text message now if the socket is open and keeps up; False if it must go
        the ordinary way instead (nothing was written)."""
        if not self._writes_now():
            return False
        self.transport.write(text_frame(payload))
        return True

    def write_texts_now(self, payloads: list[bytes]) -> bool:
        """Write several text messages, in order, in one write; False as `write_text_now`."""
        if not self._writes_now():
            return False
        self.transport.write(b"".join([text_frame(payload) for payload in payloads]))
        return True


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with each request bounded in time and, until it is whole (or
    upgraded), counted against its peer's open-socket cap; `guarded_http` binds the guard."""

    guard: IpGuard | None = None
    proxies = TrustedProxies()
    head_timeout_s = HEAD_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._pending: str | None = None
        self._head_bytes = 0
        peer = self.client[0] if self.client else None
        # A listed proxy carries many clients' requests: its own connections are not capped.
        if peer and self.guard is not None and not self.proxies.trusts(peer):
            if not self.guard.admit_pending(peer):
                transport.close()
                return
            self._pending = peer
        self._start_head_clock()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        self._start_head_clock()  # the next request on a kept-alive connection

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value))
        super().on_header(name, value)

    def _count_head(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > MAX_HEAD_BYTES:
            raise httptools.HttpParserError("request head too large")  # answered 400

    def on_message_complete(self) -> None:
        self._head_done()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._head_done()  # the socket is counted by the app from now on
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)

    def _start_head_clock(self) -> None:
        if self._head_timer is None and not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_too_slow)

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self._pending is not None and self.guard is not None:
            self.guard.release_pending(self._pending)
            self._pending = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        self.transport.close()


def guarded_http(guard: IpGuard, proxies: TrustedProxies) -> type[GuardedHttpProtocol]:
    """The HTTP protocol class `serve` gives uvicorn, counting half-sent requests in `guard`."""
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,), {"guard": guard, "proxies": proxies})
