"""One browser tab's socket: who it speaks for, and how frames reach it without waiting on it.

Pushes are never awaited by whoever changes a room: the change's author holds the room's lock
and must not wait on a slow client. A frame is sent on the spot when the socket can take it (the
usual case): written straight to the transport where the server offers that
(`Socket.write_now`: uvicorn's `protocols.py`), else through a send that completes without
suspending. So a push costs no task switch and leaves no waiting future behind for the garbage
collector to walk.
Only when a send must wait (the client reads slowly and the kernel's buffer is full) does a task
take over: it finishes that send, then drains the frames queued meanwhile, in order. A socket
that falls too far behind is closed (it will reconnect and get a fresh view).

Frames pushed while a socket is held (`hold`, `release`) leave together when the hold ends: whatever
one client message causes on its own socket (an action's view and its acknowledgement, say) goes
in one write, one system call and one packet.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from codebreakers.server.ops.logs import get_logger
from codebreakers.server.ops.ratelimit import Bucket
from codebreakers.server.wire.socket import Socket

log = get_logger(__name__)

OUTBOX_LIMIT = 256
CLOSE_GOING_AWAY = 1001

Send = Coroutine[Any, Any, None]


class Connection:
    __slots__ = (
        "_done",
        "_held",
        "_outbox",
        "_sender",
        "_write_many",
        "_write_now",
        "frames",
        "player",
        "room",
        "silence_limit",
        "socket",
    )

    def __init__(self, socket: Socket, frames: Bucket) -> None:
        self.socket = socket
        self.room: str | None = None
        self.player: str | None = None
        self.frames = frames
        # Seconds of silence after which the socket is dropped: none until it pings.
        self.silence_limit: float | None = None
        self._write_now: Callable[[bytes], bool] = socket.write_now
        self._write_many: Callable[[list[bytes]], bool] = socket.write_many_now
        self._held: list[bytes] | None = None  # frames kept back until the hold ends
        self._outbox: deque[bytes | None] = deque()  # None: close once what precedes is out
        self._sender: asyncio.Task[None] | None = None  # set while a send waits on the client
        self._done = False  # closed by us, or the peer went away: nothing more is sent

    def push(self, text: bytes) -> None:
        """Send one text frame (its UTF-8 bytes) now if the socket takes it, else queue it behind
        the waiting send; a socket whose queue is full is too slow and gets closed."""
        if self._done:
            return
        held = self._held
        if held is not None:
            held.append(text)
            return
        if self._sender is None:
            if not self._write_now(text):
                self._send_now(self.socket.send(text))
            return
        if len(self._outbox) >= OUTBOX_LIMIT:
            log.info(
                "closing a socket that fell behind",
                frames=OUTBOX_LIMIT,
                room=self.room,
                player=self.player,
            )
            self.close_soon()
            return
        self._outbox.append(text)

    def hold(self) -> None:
        """Keep the frames pushed from now on until `release`."""
        self._held = []

    def release(self) -> None:
        """Send what was held, in one write when the socket takes it at once."""
        held, self._held = self._held, None
        if not held or self._done:
            return
        if len(held) > 1 and self._sender is None and self._write_many(held):
            return
        for text in held:
            self.push(text)

    def close_soon(self) -> None:
        """Stop sending and close once queued frames are out (the oldest make room)."""
        if self._done:
            return
        while len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.popleft()
        self._outbox.append(None)
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._drain(None, None))

    def _send_now(self, send: Send) -> None:
        """Run the send until it completes or must wait; a task finishes one that waits."""
        try:
            waiting_on = send.send(None)
        except StopIteration:
            return
        except Exception:  # the peer went away: the receive loop notices and cleans up
            self._done = True
            return
        self._sender = asyncio.get_running_loop().create_task(self._drain(send, waiting_on))

    async def _drain(self, send: Send | None, waiting_on: Any) -> None:
        """Finish a send that had to wait, then send what was queued meanwhile, in order."""
        outbox = self._outbox
        try:
            if send is not None:
                await _resume(send, waiting_on)
            while outbox:
                text = outbox.popleft()
                if text is None:
                    self._done = True
                    await self.socket.close(CLOSE_GOING_AWAY)
                    return
                await self.socket.send(text)
        except Exception:  # the peer went away: the receive loop notices and cleans up
            self._done = True
        finally:
            self._sender = None

    async def stop(self) -> None:
        self._done = True
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender


async def _resume(send: Send, waiting_on: Any) -> None:
    """Drive a coroutine that was started by hand and stopped on `waiting_on` (an asyncio
    future, or None for a bare yield) to its end, as the task running it would have."""
    try:
        while True:
            if waiting_on is None:
                await asyncio.sleep(0)
            else:  # whatever the future's outcome, the coroutine itself reads it on resuming
                await asyncio.wait((waiting_on,))
            try:
                waiting_on = send.send(None)
            except StopIteration:
                return
    finally:
        send.close()  # a no-op once finished; cancelled midway, the coroutine is told so
