"""One browser tab's socket: who it speaks for, and an outbox drained by its own sender task.

Pushes are queued, never awaited, by whoever changes a room: the change's author holds the
room's lock and must not wait on a slow client. The queue keeps frames in order per socket; a
socket that falls too far behind is closed (it will reconnect and get a fresh view).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket

from codebreakers.server.ratelimit import Bucket

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 256


class Connection:
    __slots__ = ("_outbox", "_sender", "frames", "player", "room", "ws")

    def __init__(self, ws: WebSocket, frames: Bucket) -> None:
        self.ws = ws
        self.room: str | None = None
        self.player: str | None = None
        self.frames = frames
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self._sender: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._sender = asyncio.get_running_loop().create_task(self._drain())

    def push(self, text: str) -> None:
        """Queue one frame; a socket whose outbox is full is too slow and gets closed."""
        try:
            self._outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.info("closing a socket that fell %d frames behind", OUTBOX_LIMIT)
            self.close_soon()

    def close_soon(self) -> None:
        """Stop sending and close once queued frames are out."""
        while True:
            try:
                self._outbox.put_nowait(None)
                return
            except asyncio.QueueFull:
                self._outbox.get_nowait()

    async def _drain(self) -> None:
        try:
            while (text := await self._outbox.get()) is not None:
                await self.ws.send_text(text)
            await self.ws.close(1001)
        except Exception:  # the peer went away: the receive loop notices and cleans up
            return

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
