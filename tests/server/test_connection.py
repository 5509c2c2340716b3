"""A socket's sends: on the spot when the client keeps up, queued in order behind one that must
wait, closed when it falls too far behind, silent once the peer is gone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from codebreakers.server.connection import CLOSE_GOING_AWAY, OUTBOX_LIMIT, Connection
from codebreakers.server.ratelimit import Bucket

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FakeSocket:
    """What uvicorn's send does: wait until the transport is writable, then write."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.closed: int | None = None
        self.gone = False

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        if self.gone:
            raise OSError("peer went away")
        self.sent.append(text)

    async def close(self, code: int) -> None:
        await self.writable.wait()
        self.closed = code


def _connection(ws: FakeSocket) -> Connection:
    return Connection(ws, Bucket(10, 10))  # type: ignore[arg-type]


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_socket_that_keeps_up_gets_each_frame_at_once() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    conn.push("a")
    conn.push("b")
    assert ws.sent == ["a", "b"]  # no task, no wait: sent within push
    assert conn._sender is None


async def test_frames_wait_in_order_behind_a_send_that_must_wait() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    ws.writable.clear()  # the kernel's buffer is full
    for text in ("a", "b", "c"):
        conn.push(text)
    await _settle()
    assert ws.sent == []
    ws.writable.set()
    await _settle()
    assert ws.sent == ["a", "b", "c"]
    assert conn._sender is None
    conn.push("d")  # caught up: on the spot again
    assert ws.sent == ["a", "b", "c", "d"]


async def test_a_socket_too_far_behind_is_closed_after_the_newest_frames() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    ws.writable.clear()
    frames = [str(n) for n in range(OUTBOX_LIMIT + 3)]
    for text in frames:
        conn.push(text)
    conn.push("after the close")
    ws.writable.set()
    await _settle()
    assert ws.closed == CLOSE_GOING_AWAY
    assert ws.sent[0] == "0"  # the send already under way
    assert ws.sent[-1] == frames[OUTBOX_LIMIT]  # the last frame queued before the cap
    assert "after the close" not in ws.sent
    assert len(ws.sent) < len(frames)


async def test_close_soon_closes_after_what_is_queued() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    ws.writable.clear()
    conn.push("a")
    conn.close_soon()
    conn.push("b")
    ws.writable.set()
    await _settle()
    assert ws.sent == ["a"]
    assert ws.closed == CLOSE_GOING_AWAY


async def test_close_soon_on_an_idle_socket_closes_it() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    conn.close_soon()
    await _settle()
    assert ws.closed == CLOSE_GOING_AWAY


@pytest.mark.parametrize("waiting", [False, True])
async def test_a_peer_gone_ends_sending_quietly(waiting: bool) -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    ws.gone = True
    if waiting:
        ws.writable.clear()
    conn.push("a")
    ws.writable.set()
    await _settle()
    conn.push("b")
    await _settle()
    assert ws.sent == []
    assert conn._sender is None


async def test_stop_cancels_a_waiting_send() -> None:
    ws = FakeSocket()
    conn = _connection(ws)
    ws.writable.clear()
    conn.push("a")
    conn.push("b")
    sender: Any = conn._sender
    await conn.stop()
    assert sender.cancelled() or sender.done()
    ws.writable.set()
    await _settle()
    assert ws.sent == []
    conn.push("c")
    assert ws.sent == []
