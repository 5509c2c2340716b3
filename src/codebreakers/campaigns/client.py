"""A player's browser tab as a campaign drives it: a socket that survives its server.

`request` sends a message with an id and waits for its `ack` or `error`. When the socket dies
first (the server was killed, the network cut), the tab does what the protocol tells a browser
to do: reconnect, say `hello` with its token and the version it holds, and send the message
again with the *same* id. Everything a tab received is kept, so campaigns can check it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

JSON = dict[str, Any]
ANSWER_TIMEOUT_S = 20.0
RECONNECT_GIVE_UP_S = 300.0  # restarts take a minute on a loaded 2-core machine


class Lost(Exception):
    """The tab could not reach any server for RECONNECT_GIVE_UP_S: a campaign failure."""


@dataclass
class Tab:
    """One socket to one of `urls` (ws://host:port/ws), reconnecting to the next on failure."""

    urls: list[str]
    room: str
    name: str = ""
    on_frame: Callable[[Tab, JSON], None] | None = None
    origin: str | None = None
    cookie: str | None = None  # the browser's Cookie header (its identity secret), if any
    rng: random.Random = field(default_factory=random.Random)
    you: str | None = None
    token: str | None = None
    game_id: str | None = None
    version: int = -1
    view: JSON | None = None
    room_doc: JSON | None = None
    chat_seq: int = 0
    reconnects: int = 0
    resent: int = 0
    frames: int = 0
    raw: list[str] | None = None  # every frame's text, when a campaign asks to keep them
    answer_timeout: float = ANSWER_TIMEOUT_S  # no answer by then: the socket is deemed dead
    _ws: ClientConnection | None = None
    _reader: asyncio.Task[None] | None = None
    _answers: dict[str, asyncio.Future[JSON]] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _url_index: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _prefix: str = ""

    def __post_init__(self) -> None:
        self._prefix = f"{self.rng.getrandbits(32):08x}-"
        self._url_index = self.rng.randrange(len(self.urls))

    def new_id(self) -> str:
        return f"{self._prefix}{next(self._ids)}"

    # The socket

    async def open(self) -> None:
        """Connect and say hello (retrying across the urls until one answers)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + RECONNECT_GIVE_UP_S
        delay = 0.05
        while True:
            url = self.urls[self._url_index % len(self.urls)]
            try:
                await self._connect(url)
                return
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError) as e:
                if loop.time() > give_up:
                    raise Lost(
                        f"{self.name}: no server answered for {RECONNECT_GIVE_UP_S} s"
                    ) from e
                self._url_index += 1
                await asyncio.sleep(delay * (0.5 + self.rng.random()))
                delay = min(delay * 2, 1.0)

    async def _connect(self, url: str) -> None:
        headers = {"Origin": self.origin} if self.origin else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        ws = await asyncio.wait_for(
            connect(
                url, additional_headers=headers, max_size=2**22, open_timeout=10, close_timeout=1
            ),
            15,
        )
        hello: JSON = {"type": "hello", "room": self.room, "chat_seq": self.chat_seq}
        if self.token:
            hello |= {"token": self.token}
        if self.game_id:
            hello |= {"game_id": self.game_id, "game_version": self.version}
        welcomed: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._answers["<hello>"] = welcomed
        self._ws = ws
        self._reader = asyncio.get_running_loop().create_task(self._read(ws))
        try:
            await ws.send(json.dumps(hello))
            await asyncio.wait_for(asyncio.shield(welcomed), self.answer_timeout)
        except BaseException:
            await self._drop()
            raise

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self.frames += 1
                if self.raw is not None:
                    self.raw.append(str(text))
                self._receive(json.loads(text))
        except ConnectionClosed:
            pass
        finally:
            for key, future in list(self._answers.items()):
                if not future.done():
                    future.set_exception(ConnectionError("socket closed"))
                self._answers.pop(key, None)
            self._changed.set()

    def _receive(self, frame: JSON) -> None:
        kind = frame.get("type")
        if kind == "chat":  # the last frame answering hello
            for line in frame["lines"]:
                self.chat_seq = max(self.chat_seq, line["seq"])
            self._settle("<hello>", frame)
        elif kind == "view":
            self.game_id, self.version, self.view = (
                frame["game_id"],
                frame["version"],
                frame["view"],
            )
        elif kind == "room":
            self.room_doc = frame["room"]
        elif kind == "joined":
            self.you, self.token = frame["you"], frame["token"]
        elif kind in ("ack", "error") and frame.get("id") is not None:
            self._settle(frame["id"], frame)
        if self.on_frame is not None:
            self.on_frame(self, frame)
        self._changed.set()

    def _settle(self, key: str, frame: JSON) -> None:
        future = self._answers.pop(key, None)
        if future is not None and not future.done():
            future.set_result(frame)

    async def _drop(self) -> None:
        ws, reader = self._ws, self._reader
        self._ws = self._reader = None
        if ws is not None:
            await ws.close()
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    @property
    def connected(self) -> bool:
        return self._ws is not None

    async def close(self) -> None:
        await self._drop()

    # Messages

    async def request(self, frame: JSON, msg_id: str | None = None) -> JSON:
        """Send `frame` with an id and return its answer, reconnecting and resending (same id)
        for as long as the socket dies before the answer arrives."""
        msg_id = msg_id or self.new_id()
        frame = {**frame, "id": msg_id}
        first = True
        while True:
            if self._ws is None:
                await self._reconnect()
            future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
            self._answers[msg_id] = future
            if not first:
                self.resent += 1
            first = False
            try:
                assert self._ws is not None
                await self._ws.send(json.dumps(frame))
                return await asyncio.wait_for(asyncio.shield(future), self.answer_timeout)
            except (ConnectionError, ConnectionClosed, TimeoutError, OSError):
                self._answers.pop(msg_id, None)
                await self._drop()

    async def _reconnect(self) -> None:
        self.reconnects += 1
        await self.open()

    async def join(self, name: str) -> str:
        answer = await self.request({"type": "join", "name": name})
        if answer["type"] != "ack" or self.you is None:
            raise RuntimeError(f"join refused: {answer}")
        return self.you

    async def wait_change(self, timeout: float) -> None:
        """Wait until a frame arrives or the socket dies (reconnecting then), or `timeout`."""
        if self._ws is None:
            await self._reconnect()
        self._changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)
        if self._ws is not None and self._reader is not None and self._reader.done():
            await self._drop()
