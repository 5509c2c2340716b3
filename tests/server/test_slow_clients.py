"""Slow clients on a real server: raw TCP connections that trickle a WebSocket handshake or a
frame are closed within the bounds (server/wire.py), connections still sending their request
count against their address's cap, and a player meanwhile plays on."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import struct
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from real_server import RealServer
from websockets.sync.client import connect

from codebreakers.server.wire import FRAME_TIMEOUT_S, HEAD_TIMEOUT_S

pytestmark = pytest.mark.anyio
SLACK_S = 4.0  # a loaded machine's timers fire late


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def start(tmp_path: Path) -> Iterator:
    servers: list[RealServer] = []

    def run(*args: str) -> RealServer:
        server = RealServer(tmp_path / f"s{len(servers)}.db", tmp_path / "serve.log", args)
        servers.append(server)
        server.start()
        return server

    yield run
    for server in servers:
        server.stop()


def upgrade(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


async def trickle(port: int, data: bytes, chunk: int, every_s: float, limit_s: float) -> float:
    """Send `data` `chunk` bytes every `every_s`; seconds until the server closed (or `limit_s`)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.monotonic()
    try:
        for at in range(0, len(data), chunk):
            writer.write(data[at : at + chunk])
            try:
                while await asyncio.wait_for(reader.read(4096), every_s):
                    pass  # a close frame, say; then the end of the stream
                return time.monotonic() - started
            except TimeoutError:
                pass
            except ConnectionError:
                return time.monotonic() - started
            if time.monotonic() - started > limit_s:
                break
        return limit_s
    finally:
        writer.close()


def plays(port: int) -> bool:
    """A tab opens a socket and is answered."""
    with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
        ws.send(json.dumps({"type": "join", "id": "1", "name": "Ann"}))
        return json.loads(ws.recv(timeout=10))["code"] == "hello_first"


async def test_handshakes_sent_a_byte_every_half_second_are_closed_in_time(start) -> None:
    server = start()
    request = upgrade(server.port)
    limit = HEAD_TIMEOUT_S + SLACK_S
    slow = [trickle(server.port, request, 1, 0.5, limit + 5) for _ in range(30)]
    tasks = [asyncio.ensure_future(t) for t in slow]
    await asyncio.sleep(2)
    assert await asyncio.to_thread(plays, server.port)  # the server serves on meanwhile
    closed_after = await asyncio.gather(*tasks)
    assert all(HEAD_TIMEOUT_S - 1 <= s <= limit for s in closed_after), closed_after


async def test_a_frame_trickled_in_is_closed_with_1008(start) -> None:
    server = start()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(upgrade(server.port))
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    size = 60_000
    header = struct.pack("!BBH", 0x81, 0x80 | 126, size) + b"mask"  # a masked 60 KB text frame
    writer.write(header)
    started = time.monotonic()
    got = b""
    while time.monotonic() - started < FRAME_TIMEOUT_S + SLACK_S:
        writer.write(b"x" * 50)
        try:
            chunk = await asyncio.wait_for(reader.read(4096), 0.5)
        except TimeoutError:
            continue
        got += chunk
        if not chunk:
            break
    elapsed = time.monotonic() - started
    writer.close()
    assert FRAME_TIMEOUT_S - 1 <= elapsed <= FRAME_TIMEOUT_S + SLACK_S, elapsed
    assert got[:1] == b"\x88" and struct.unpack("!H", got[2:4])[0] == 1008, got


async def test_half_sent_requests_count_against_the_address_cap(start) -> None:
    server = start("--per-ip-sockets", "4")
    held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(4)]
    for _, writer in held:
        writer.write(b"GET /ws HTTP/1.1\r\n")  # and no more
    await asyncio.sleep(0.5)
    over = await trickle(server.port, upgrade(server.port), 1, 0.5, 5)
    assert over < 1.0  # closed at once: the 4 half-sent requests fill the cap
    for _, writer in held:
        writer.close()
    await asyncio.sleep(0.5)
    assert await asyncio.to_thread(plays, server.port)  # closed, they free their places


async def test_a_request_head_is_bounded_in_size(start) -> None:
    server = start()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"p" * 100_000 + b"\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
