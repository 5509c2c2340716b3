"""A socket's sends: on the spot when the client keeps up, queued in order behind one that must
wait, closed when it falls too far behind, silent once the peer is gone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from codebreakers.server.ops.ratelimit import Bucket
from codebreakers.server.wire.connection import CLOSE_GOING_AWAY, OUTBOX_LIMIT, Connection

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class FakeSocket:
    """A `Socket` (server/wire/socket.py) whose send waits until the transport is writable, then
    writes. With `direct`, its writers write at once when they can, as uvicorn's
    (server/wire/protocols.py) and picows' do; without, they never do (granian, the test
    client)."""

    def __init__(self, direct: bool) -> None:
        self.direct = direct
        self.writable = asyncio.Event()
        self.writable.set()
        self.sent: list[str] = []
        self.asgi_sends = 0
        self.closed: int | None = None
        self.gone = False
        self.joint_writes: list[list[str]] = []

    def write_now(self, payload: bytes) -> bool:
        return self.write_many_now([payload])

    def write_many_now(self, payloads: list[bytes]) -> bool:
        if not self.direct or self.gone or not self.writable.is_set() or self.closed is not None:
            return False
        texts = [payload.decode() for payload in payloads]
        if len(texts) > 1:
            self.joint_writes.append(texts)
        self.sent += texts
        return True

    async def send(self, payload: bytes) -> None:
        self.asgi_sends += 1
        await self.writable.wait()
        if self.gone:
            raise OSError("peer went away")
        self.sent.append(payload.decode())

    async def close(self, code: int) -> None:
        await self.writable.wait()
        self.closed = code


@pytest.fixture(params=[False, True], ids=["asgi", "direct"])
def ws(request: pytest.FixtureRequest) -> FakeSocket:
    return FakeSocket(direct=request.param)


def _connection(ws: FakeSocket) -> Connection:
    return Connection(ws, Bucket(10, 10))


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_socket_that_keeps_up_gets_each_frame_at_once(ws: FakeSocket) -> None:
    conn = _connection(ws)
    conn.push(b"a")
    conn.push(b"b")
    assert ws.sent == ["a", "b"]  # no task, no wait: sent within push
    assert ws.asgi_sends == (0 if ws.direct else 2)  # written directly: not even a coroutine
    assert conn._sender is None


async def test_frames_wait_in_order_behind_a_send_that_must_wait(ws: FakeSocket) -> None:
    conn = _connection(ws)
    ws.writable.clear()  # the kernel's buffer is full
    for text in (b"a", b"b", b"c"):
        conn.push(text)
    await _settle()
    assert ws.sent == []
    ws.writable.set()
    await _settle()
    assert ws.sent == ["a", "b", "c"]
    assert conn._sender is None
    conn.push(b"d")  # caught up: on the spot again
    assert ws.sent == ["a", "b", "c", "d"]


async def test_a_socket_too_far_behind_is_closed_after_the_newest_frames(ws: FakeSocket) -> None:
    conn = _connection(ws)
    ws.writable.clear()
    frames = [str(n).encode() for n in range(OUTBOX_LIMIT + 3)]
    for text in frames:
        conn.push(text)
    conn.push(b"after the close")
    ws.writable.set()
    await _settle()
    assert ws.closed == CLOSE_GOING_AWAY
    assert ws.sent[0] == "0"  # the send already under way
    assert ws.sent[-1] == frames[OUTBOX_LIMIT].decode()  # the last frame queued before the cap
    assert "after the close" not in ws.sent
    assert len(ws.sent) < len(frames)


async def test_close_soon_closes_after_what_is_queued(ws: FakeSocket) -> None:
    conn = _connection(ws)
    ws.writable.clear()
    conn.push(b"a")
    conn.close_soon()
    conn.push(b"b")
    ws.writable.set()
    await _settle()
    assert ws.sent == ["a"]
    assert ws.closed == CLOSE_GOING_AWAY


async def test_close_soon_on_an_idle_socket_closes_it(ws: FakeSocket) -> None:
    conn = _connection(ws)
    conn.close_soon()
    await _settle()
    assert ws.closed == CLOSE_GOING_AWAY


@pytest.mark.parametrize("waiting", [False, True])
async def test_a_peer_gone_ends_sending_quietly(ws: FakeSocket, waiting: bool) -> None:
    conn = _connection(ws)
    ws.gone = True
    if waiting:
        ws.writable.clear()
    conn.push(b"a")
    ws.writable.set()
    await _settle()
    conn.push(b"b")
    await _settle()
    assert ws.sent == []
    assert conn._sender is None


async def test_stop_cancels_a_waiting_send(ws: FakeSocket) -> None:
    conn = _connection(ws)
    ws.writable.clear()
    conn.push(b"a")
    conn.push(b"b")
    sender: Any = conn._sender
    await conn.stop()
    assert sender.cancelled() or sender.done()
    ws.writable.set()
    await _settle()
    assert ws.sent == []
    conn.push(b"c")
    assert ws.sent == []


async def test_frames_pushed_together_leave_in_one_write_in_order(ws: FakeSocket) -> None:
    conn = _connection(ws)
    conn.hold()
    conn.push(b"view")
    conn.push(b"ack")
    assert ws.sent == []
    conn.release()
    assert ws.sent == ["view", "ack"]
    assert ws.joint_writes == ([["view", "ack"]] if ws.direct else [])
    conn.push(b"next")  # no longer held
    assert ws.sent == ["view", "ack", "next"]


async def test_frames_held_behind_a_waiting_send_keep_their_order(ws: FakeSocket) -> None:
    conn = _connection(ws)
    ws.writable.clear()
    conn.push(b"a")
    conn.hold()
    conn.push(b"b")
    conn.push(b"c")
    conn.release()
    ws.writable.set()
    await _settle()
    assert ws.sent == ["a", "b", "c"]
    assert ws.joint_writes == []


async def test_frames_held_for_a_socket_stopped_meanwhile_are_dropped(ws: FakeSocket) -> None:
    conn = _connection(ws)
    conn.hold()
    conn.push(b"view")
    await conn.stop()  # the peer went away while the message was handled
    conn.release()
    assert ws.sent == []
    assert ws.joint_writes == []
