"""Helpers for the bus tests: a recording listener, and a way to wait for deliveries."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import msgspec

from codebreakers.bus.base import CarriedAction, CarriedLine, Notice


class Inbox:
    """A listener that records what it is given."""

    def __init__(self) -> None:
        self.messages: list[Notice] = []

    async def __call__(self, message: Notice) -> None:
        self.messages.append(message)


async def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait until `check()` holds, polling every 10 ms; fail after `timeout` seconds."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


class FreezableProxy:
    """A TCP proxy that can go silent without closing anything, like a cut cable.

    While frozen it forwards nothing (bytes in either direction are dropped) and holds new
    connections unanswered; Redis itself never notices, so only the client's own pings can tell.
    """

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.frozen = False
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.close()
        for task in self._handlers:
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            while self.frozen and not reader.at_eof():
                await asyncio.sleep(0.01)
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
            self._writers.add(up_writer)
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        except (OSError, asyncio.CancelledError):
            pass  # closed by either side, or by close(): nothing left to forward
        finally:
            writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if not self.frozen:
                    writer.write(data)
                    await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()


def carrying(room: str, i: int, text: str = "hello") -> Notice:
    """A notice carrying an action row, a chat line and a room document (any JSON object: the
    bus leaves the document to the room's decoder)."""
    return Notice(
        room=room,
        room_version=i,
        game_id="g1",
        game_version=i,
        chat_seq=i,
        room_data=msgspec.Raw(b'{"schema":1,"game":"decrypto"}'),
        actions=(CarriedAction(i, "p2", f"a{i}", {"type": "transmit", "clues": ["x"]}, 1.5),),
        lines=(CarriedLine(i, "g1", "team:white", "p2", "Ann", text, 2.5, f"c{i}"),),
    )
