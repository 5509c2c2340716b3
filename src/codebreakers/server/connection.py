"""One browser tab's socket: who it speaks for, and an outbox drained by its own sender task.

Pushes are queued, never awaited, by whoever changes a room: the change's author holds the
room's lock and must not wait on a slow client. The queue keeps frames in order per socket; a
socket that falls too far behind is closed (it will reconnect and get a fresh view).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

from starlette.websockets import WebSocket

from codebreakers.server.ratelimit import Bucket

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 256


class Connection:
    __slots__ = ("_outbox", "_sender", "_wakeup", "frames", "player", "room", "ws")

    def __init__(self, ws: WebSocket, frames: Bucket) -> None:
        self.ws = ws
        self.room: str | None = None
        self.player: str | None = None
        self.frames = frames
        # A deque and one future while the sender waits: what an asyncio.Queue does for a
        # single consumer, without its bookkeeping on every frame of every socket.
        self._outbox: deque[str | None] = deque()
        self._wakeup: asyncio.Future[None] | None = None
        self._sender: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._sender = asyncio.get_running_loop().create_task(self._drain())

    def push(self, text: str) -> None:
        """Queue one frame; a socket whose outbox is full is too slow and gets closed."""
        if len(self._outbox) >= OUTBOX_LIMIT:
            log.info("closing a socket that fell %d frames behind", OUTBOX_LIMIT)
            self.close_soon()
            return
        self._put(text)

    def close_soon(self) -> None:
        """Stop sending and close once queued frames are out (the oldest make room)."""
        while len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.popleft()
        self._put(None)

    def _put(self, item: str | None) -> None:
        self._outbox.append(item)
        waiter = self._wakeup
        if waiter is not None:
            self._wakeup = None
            if not waiter.done():
                waiter.set_result(None)

    async def _drain(self) -> None:
        outbox = self._outbox
        loop = asyncio.get_running_loop()
        try:
            while True:
                while not outbox:
                    self._wakeup = loop.create_future()
                    await self._wakeup
                text = outbox.popleft()
                if text is None:
                    break
                await self.ws.send_text(text)
            await self.ws.close(1001)
        except Exception:  # the peer went away: the receive loop notices and cleans up
            return

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
