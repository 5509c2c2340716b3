"""Frames written straight to the socket are what a WebSocket client reads, whatever their size,
and the direct writer steps aside whenever the ordinary way must be taken."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import pytest
import uvicorn
from real_server import free_port
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from codebreakers.server.ops.ratelimit import Bucket
from codebreakers.server.wire.connection import Connection
from codebreakers.server.wire.protocols import (
    WRITE_TEXT,
    WRITE_TEXTS,
    DirectWriteProtocol,
    frame_started,
    frames_completed,
    text_frame,
)
from codebreakers.server.wire.starlette_socket import StarletteSocket

pytestmark = pytest.mark.anyio

# Each length form of the header (7-bit, 16-bit, 64-bit), their edges, and text beyond ASCII.
PAYLOADS = [b"", b"x" * 125, b"y" * 126, b"z" * 0xFFFF, b"w" * 0x10000, "Сигнал 암호 ✓".encode()]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: str(len(p)))
def test_a_frame_parses_back_as_one_whole_text_message(payload: bytes) -> None:
    reader = StreamReader()
    reader.feed_data(text_frame(payload))
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame = done.value
    assert (frame.opcode, frame.fin, bytes(frame.data)) == (Opcode.TEXT, True, payload)
    assert not reader.buffer  # nothing left over


class _Probe:
    """An app that pushes PAYLOADS through a Connection and notes what the writer said."""

    def __init__(self) -> None:
        self.offered: bool | None = None
        self.direct: list[bool] = []
        self.after_close: bool | None = None
        self.together: list[tuple[int, bool]] = []  # (frames, written) of each joint write
        self.flow: tuple[bool, bool] | None = None  # written while paused, then once resumed

    async def endpoint(self, ws: WebSocket) -> None:
        await ws.accept()
        extensions = ws.scope["extensions"]
        writer = extensions.get(WRITE_TEXT)
        self.offered = writer is not None
        write_many = extensions.get(WRITE_TEXTS)
        if write_many is not None:
            extensions[WRITE_TEXTS] = partial(self._write_many, write_many)
        conn = Connection(StarletteSocket(ws), Bucket(10, 10))
        self.direct.append(writer(b"probe") if writer else False)
        for payload in PAYLOADS:
            conn.push(payload)
        conn.hold()
        for payload in PAYLOADS:
            conn.push(payload)
        conn.release()
        if writer:  # the transport's flow control: above its high-water mark, then below
            writer.__self__.pause_writing()  # type: ignore[attr-defined]
            paused = writer(b"paused")
            writer.__self__.resume_writing()  # type: ignore[attr-defined]
            self.flow = (paused, writer(b"resumed"))
        await ws.receive()  # the client's close
        self.after_close = writer(b"too late") if writer else None
        await conn.stop()

    def _write_many(self, write_many: Callable[[list[bytes]], bool], texts: list[bytes]) -> bool:
        written = write_many(texts)
        self.together.append((len(texts), written))
        return written


@pytest.fixture
async def server(request: pytest.FixtureRequest) -> AsyncIterator[tuple[str, _Probe]]:
    probe = _Probe()
    app = Starlette(routes=[WebSocketRoute("/ws", probe.endpoint)])
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws=DirectWriteProtocol,
        ws_per_message_deflate=request.param,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    yield f"ws://127.0.0.1:{port}/ws", probe
    server.should_exit = True
    await task


async def _read(url: str, compression: Any, count: int) -> list[bytes]:
    async with connect(url, compression=compression, max_size=None) as client:
        return [(await asyncio.wait_for(client.recv(), 10)).encode() for _ in range(count)]


@pytest.mark.parametrize("server", [False], indirect=True)
async def test_pushes_are_written_directly_and_read_whole(server: tuple[str, _Probe]) -> None:
    url, probe = server
    got = await _read(url, None, 2 + 2 * len(PAYLOADS))
    assert got == [b"probe", *PAYLOADS, *PAYLOADS, b"resumed"]
    await asyncio.sleep(0.05)
    assert probe.offered and probe.direct == [True]
    assert probe.flow == (False, True)  # nothing written while the transport was paused
    assert probe.together == [(len(PAYLOADS), True)]  # the held frames: one write
    assert probe.after_close is False  # the peer closed: nothing more is written


@pytest.mark.parametrize("server", [True], indirect=True)
async def test_with_compression_the_writer_steps_aside(server: tuple[str, _Probe]) -> None:
    url, probe = server
    got = await _read(url, "deflate", 2 * len(PAYLOADS))  # compressed: the ordinary way
    assert got == PAYLOADS * 2  # the refused probe was not written
    await asyncio.sleep(0.05)
    assert probe.offered and probe.direct == [False] and probe.flow == (False, False)
    assert probe.together == [(len(PAYLOADS), False)]  # refused, then sent one by one


def test_the_frame_clock_reads_what_the_real_parser_holds() -> None:
    """`frames_completed` and `frame_started` lean on websockets' internals: checked here against
    the pinned library, a frame fed in two halves, then whole with the next one begun."""
    conn = ServerProtocol()
    conn.receive_data(
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    (request,) = conn.events_received()
    conn.send_response(conn.accept(request))  # open, as uvicorn's protocol is when frames come
    assert conn.state is State.OPEN
    masked = Frame(Opcode.TEXT, b"hello").serialize(mask=True, extensions=[])
    conn.receive_data(masked[:4])
    assert (frames_completed(conn), frame_started(conn)) == (False, True)
    conn.receive_data(masked[4:] + masked[:3])
    assert (frames_completed(conn), frame_started(conn)) == (True, True)
    conn.events_received()
    conn.receive_data(masked[3:])
    assert (frames_completed(conn), frame_started(conn)) == (True, False)
