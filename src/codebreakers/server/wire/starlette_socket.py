"""`Socket` (socket.py) over Starlette's ASGI WebSocket: uvicorn, granian, the test client.

Under uvicorn, `protocols.DirectWriteProtocol` offers synchronous writers of whole text frames in
the scope's extensions; they are this adapter's `write_now` and `write_many_now`, bound as they
are, so a push costs the same one call it did before the seam. Without them (granian, the
in-process test client) nothing is written at once and every frame goes the ASGI way.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from codebreakers.server.wire.protocols import WRITE_TEXT, WRITE_TEXTS


def _never(payload: object) -> bool:
    return False


class StarletteSocket:
    __slots__ = ("write_many_now", "write_now", "ws")

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        extensions = ws.scope.get("extensions") or {}
        self.write_now: Callable[[bytes], bool] = extensions.get(WRITE_TEXT) or _never
        self.write_many_now: Callable[[list[bytes]], bool] = extensions.get(WRITE_TEXTS) or _never

    @classmethod
    async def accept(cls, ws: WebSocket) -> StarletteSocket:
        await ws.accept()
        return cls(ws)

    @property
    def handshake(self) -> HTTPConnection:
        return self.ws

    async def receive(self) -> str | bytes | None:
        message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        return text if text is not None else message.get("bytes") or b""

    async def send(self, payload: bytes) -> None:
        await self.ws.send_text(payload.decode())

    async def close(self, code: int) -> None:
        await self.ws.close(code)
