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
"""

from __future__ import annotations

import struct
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

WRITE_TEXT = "codebreakers.write_text"
WRITE_TEXTS = "codebreakers.write_texts"

_OPEN = State.OPEN
_FIN_TEXT = 0x81  # FIN bit and the text opcode: one whole, unfragmented text message
_TWO_BYTE_LENGTH = 126
_EIGHT_BYTE_LENGTH = 127


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


class DirectWriteProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O protocol; the app finds `write_text_now` in its scope's extensions."""

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
