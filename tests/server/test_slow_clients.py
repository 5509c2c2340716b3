"""Slow clients on a real server: raw TCP connections that trickle a WebSocket handshake or a
frame are closed within the bounds (server/wire/protocols.py), connections still sending their
request count against their address's cap, and a player meanwhile plays on."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.sync.client import connect

from codebreakers.campaigns.slow import trickled_frame, trickled_handshake
from codebreakers.server.wire.protocols import FRAME_TIMEOUT_S, HEAD_TIMEOUT_S

pytestmark = pytest.mark.anyio
SLACK_S = 4.0  # a loaded machine's timers fire late


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def plays(port: int) -> bool:
    """A tab opens a socket and is answered."""
    with connect(f"ws://127.0.0.1:{port}/ws", proxy=None) as ws:
        ws.send(json.dumps({"type": "join", "id": "1", "name": "Ann"}))
        return json.loads(ws.recv(timeout=10))["code"] == "hello_first"


async def test_handshakes_sent_a_byte_every_half_second_are_closed_in_time(
    start_real_server,
) -> None:
    server = start_real_server()
    tasks = [asyncio.ensure_future(trickled_handshake(server.port)) for _ in range(30)]
    await asyncio.sleep(2)
    assert await asyncio.to_thread(plays, server.port)  # the server serves on meanwhile
    closed_after = await asyncio.gather(*tasks)
    assert all(
        s is not None and HEAD_TIMEOUT_S - 1 <= s <= HEAD_TIMEOUT_S + SLACK_S for s in closed_after
    ), closed_after


async def test_a_frame_trickled_in_is_closed_with_1008(start_real_server) -> None:
    server = start_real_server()
    seconds, code = await trickled_frame(server.port)
    assert seconds is not None and FRAME_TIMEOUT_S - 1 <= seconds <= FRAME_TIMEOUT_S + SLACK_S
    assert code == 1008


async def test_half_sent_requests_count_against_the_address_cap(start_real_server) -> None:
    server = start_real_server("--per-ip-sockets", "4")
    held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(4)]
    for _, writer in held:
        writer.write(b"GET /ws HTTP/1.1\r\n")  # and no more
    await asyncio.sleep(0.5)
    over = await trickled_handshake(server.port)
    assert over is not None and over < 1.0  # closed at once: 4 half-sent requests fill the cap
    for _, writer in held:
        writer.close()
    await asyncio.sleep(0.5)
    assert await asyncio.to_thread(plays, server.port)  # closed, they free their places


async def test_a_request_head_is_bounded_in_size(start_real_server) -> None:
    server = start_real_server()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"p" * 100_000 + b"\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
