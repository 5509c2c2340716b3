"""Slow clients over raw TCP: a WebSocket handshake or a frame sent a few bytes at a time, which
the server must cut off within its bounds (server/wire/protocols.py). Used by the abuse campaign
and by tests/server/test_slow_clients.py."""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time

CLOSE = 0x88  # FIN and the close opcode: the first byte of the server's close frame


def upgrade_request(port: int) -> bytes:
    """A WebSocket upgrade of `/ws` on 127.0.0.1:`port`, whole."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def _until_closed(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pieces: list[bytes], every_s: float
) -> tuple[float | None, bytes]:
    """Send a piece every `every_s` until the server closes: (seconds it took, what it sent);
    None when every piece went and the connection is still open."""
    started = time.monotonic()
    got = b""
    for piece in pieces:
        writer.write(piece)
        try:
            while chunk := await asyncio.wait_for(reader.read(4096), every_s):
                got += chunk  # a close frame, say; then the end of the stream
            return time.monotonic() - started, got
        except TimeoutError:
            continue
        except ConnectionError:
            return time.monotonic() - started, got
    return None, got


async def trickled_handshake(port: int, every_s: float = 0.5) -> float | None:
    """An upgrade sent one byte every `every_s`: seconds until the server closed it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = upgrade_request(port)
        return (await _until_closed(reader, writer, [bytes([b]) for b in request], every_s))[0]
    finally:
        writer.close()


async def trickled_frame(
    port: int, size: int = 60_000, chunk: int = 50, every_s: float = 0.5
) -> tuple[float | None, int | None]:
    """A socket upgraded at once that then sends a `size`-byte text frame `chunk` bytes every
    `every_s`: (seconds from the frame's first byte until the server closed, its close code)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(upgrade_request(port))
        answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        if not answer.startswith(b"HTTP/1.1 101"):
            return 0.0, None
        header = struct.pack("!BBH", 0x81, 0x80 | 126, size) + b"mask"  # masked, 16-bit length
        payload = b"x" * size
        pieces = [header] + [payload[i : i + chunk] for i in range(0, size, chunk)]
        seconds, got = await _until_closed(reader, writer, pieces, every_s)
        code = struct.unpack("!H", got[2:4])[0] if got[:1] == bytes([CLOSE]) else None
        return seconds, code
    finally:
        writer.close()
