"""A small TCP proxy that can cut, stall or slow the connections passing through it.

Clients connect to the proxy; each connection is piped to the server. A campaign flips a
connection's fault at any moment: `cut` closes both sides at once (a dropped Wi-Fi), `stall`
stops forwarding while keeping the sockets open (a network gone silent), `slow` forwards in
small chunks with a delay (a congested mobile link). Faults apply to the connections open at
that moment; new connections start healthy.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

CHUNK = 64
SLOW_DELAY_S = 0.02


@dataclass(eq=False)  # kept in a set, by identity
class Pipe:
    client: asyncio.StreamWriter
    server: asyncio.StreamWriter
    mode: str = "ok"  # ok, stall or slow
    resume: asyncio.Event = field(default_factory=asyncio.Event)

    def cut(self) -> None:
        for writer in (self.client, self.server):
            with contextlib.suppress(Exception):
                writer.transport.abort()

    def set(self, mode: str) -> None:
        self.mode = mode
        if mode == "stall":
            self.resume.clear()
        else:
            self.resume.set()


class FaultyProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.pipes: set[Pipe] = set()
        self.port = 0
        self._server: asyncio.Server | None = None
        self.faults: dict[str, int] = {"cut": 0, "stall": 0, "slow": 0}

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for pipe in list(self.pipes):
            pipe.cut()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        pipe = Pipe(writer, up_writer)
        pipe.resume.set()
        self.pipes.add(pipe)
        try:
            await asyncio.gather(
                self._copy(reader, up_writer, pipe), self._copy(up_reader, writer, pipe)
            )
        finally:
            self.pipes.discard(pipe)
            pipe.cut()

    async def _copy(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pipe: Pipe
    ) -> None:
        with contextlib.suppress(Exception):
            while data := await reader.read(65536):
                step = CHUNK if pipe.mode == "slow" else len(data)  # fixed for this buffer
                for at in range(0, len(data), step):
                    await pipe.resume.wait()
                    writer.write(data[at : at + step])
                    await writer.drain()
                    if step == CHUNK:
                        await asyncio.sleep(SLOW_DELAY_S)
        pipe.cut()

    def fault(self, mode: str, pipe: Pipe) -> None:
        """Apply one fault to one open connection."""
        self.faults[mode] += 1
        if mode == "cut":
            pipe.cut()
        else:
            pipe.set(mode)

    def heal(self, pipe: Pipe) -> None:
        pipe.set("ok")
