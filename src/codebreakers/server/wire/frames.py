"""A server's WebSocket text frame, built by hand for the writers that put frames straight on the
transport (`protocols.DirectWriteProtocol`, `picows_socket.PicowsSocket`'s joint writes)."""

from __future__ import annotations

import struct

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
