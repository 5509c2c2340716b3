"""A group of six sockets on the bare broadcast endpoint, driven like a game table.

One action is a short text from one member (members take turns); it is done when every member
has received the broadcast it caused, which is the same "action to last view" latency the real
tables measure.
"""

from __future__ import annotations

import asyncio
import time

from codebreakers.bench.sockets import BenchSocket, Shared, open_socket

PREFIX = '{"type":"view","id":'


class BareTable:
    def __init__(self, shared: Shared, number: int, seats: int) -> None:
        self.shared = shared
        self.number = number
        self.seats = seats
        self.stats = shared.stats
        self.sockets: list[BenchSocket] = []
        self._sent = 0
        self._waiting_id = -1
        self._remaining = 0
        self._t0 = 0.0
        self._done: asyncio.Future[None] | None = None

    @property
    def players(self) -> int:
        return len(self.sockets)

    async def open(self, player_index: int) -> None:
        path = f"/bare/g{self.number}"
        for seat in range(self.seats):
            url = self.shared.url_for(player_index + seat)
            self.sockets.append(await open_socket(url, path, self.shared, self._on_frame))

    def _on_frame(self, frame: str) -> None:
        self.stats.push(frame)
        if not frame.startswith(PREFIX):
            self.stats.error("unexpected_frame")
            return
        if int(frame[len(PREFIX) : frame.index(",", len(PREFIX))]) != self._waiting_id:
            return
        self._remaining -= 1
        if self._remaining == 0 and self._done is not None and not self._done.done():
            self._done.set_result(None)

    async def act(self, timeout: float) -> None:
        self._sent += 1
        sender = self.sockets[self._sent % len(self.sockets)]
        self._waiting_id = self.number * 1_000_000 + self._sent
        self._remaining = len(self.sockets)
        self._done = asyncio.get_running_loop().create_future()
        measuring = self.stats.measuring
        self._t0 = time.perf_counter()
        sender.send(str(self._waiting_id))
        if measuring:
            self.stats.actions += 1
        try:
            await asyncio.wait_for(self._done, timeout)
        except TimeoutError:
            if measuring:
                self.stats.incomplete += 1
            return
        if measuring:
            self.stats.action_done("broadcast", time.perf_counter() - self._t0)

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()
