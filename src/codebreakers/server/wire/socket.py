"""The seam between the game's `/ws` endpoint and the server that carries the socket.

The endpoint (server/ws/endpoint.py) and a socket's writer (`connection.py`) see a WebSocket
only through `Socket`: the upgrade request it was opened with, the next message in, a text
frame out (at once when the socket keeps up, else by waiting), and a close with a code.
`starlette_socket.StarletteSocket` implements it for Starlette's ASGI WebSocket (under uvicorn,
granian or the in-process test client); a transport of its own for `/ws` (issue 21 measures
picows) would be a second adapter, and nothing above this module would know which it has.
"""

from __future__ import annotations

from typing import Protocol

from starlette.requests import HTTPConnection


class Socket(Protocol):
    """One accepted WebSocket."""

    @property
    def handshake(self) -> HTTPConnection:
        """The upgrade request: its headers and cookies, and the client's address and scheme as
        the trusted proxies tell them (server/ops/proxies.py)."""
        ...

    async def receive(self) -> str | bytes | None:
        """The next whole message (text as str, binary as bytes); None once the socket closed."""
        ...

    def write_now(self, payload: bytes) -> bool:
        """Write one text frame (its UTF-8 bytes) if the socket takes it without waiting; False
        (nothing written) when it must wait or is closing: then `send` it."""
        ...

    def write_many_now(self, payloads: list[bytes]) -> bool:
        """Several text frames in one write, in order, under the same condition as `write_now`."""
        ...

    async def send(self, payload: bytes) -> None:
        """Send one text frame, waiting while the client reads slowly; raises once it is gone."""
        ...

    async def close(self, code: int) -> None:
        """Send a close frame with `code` and end the socket."""
        ...
