"""The bare broadcast endpoint: the ceiling the real server's fan-out is compared against.

It runs on the same stack as `codebreakers serve` (Starlette under uvicorn or granian, same
WebSocket settings) and does the least a game server must do: each text a client sends is
answered by one JSON text of the size of a game's average push, sent to every member of the
sender's group. No rooms, no rules, no store, no per-seat views: whatever our server costs beyond
this is the price of the game itself.

Run it as `python -m codebreakers.bench.asgi codebreakers.bench.bare:app --port P --server S`.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgspec
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from codebreakers.server.ops.process import tune_gc

SIZE_ENV = "CODEBREAKERS_BARE_SIZE"
# The game's pushes average 3.0 KB in the 10,000-player runs (`push_bytes_avg`: views, which
# grow as rounds finish, acks and chat lines); 1.6 KB until 30 November, the size of an early
# view (docs/performance.md).
DEFAULT_SIZE = 3000
_ENVELOPE = len(msgspec.json.encode({"type": "view", "id": 0, "pad": ""}))
PAD = "x" * max(0, int(os.environ.get(SIZE_ENV, DEFAULT_SIZE)) - _ENVELOPE - 6)

_groups: dict[str, set[WebSocket]] = {}


async def _health(request: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


async def _broadcast(ws: WebSocket) -> None:
    """Join the group in the path; fan every received text out to the whole group."""
    group = ws.path_params["group"]
    await ws.accept()
    members = _groups.setdefault(group, set())
    members.add(ws)
    try:
        while True:
            text = await ws.receive_text()
            payload = msgspec.json.encode({"type": "view", "id": int(text), "pad": PAD}).decode()
            for member in tuple(members):
                await member.send_text(payload)
    except WebSocketDisconnect:
        pass
    finally:
        members.discard(ws)
        if not members:
            _groups.pop(group, None)


@asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    tune_gc()
    yield


app = Starlette(
    routes=[Route("/healthz", _health), WebSocketRoute("/bare/{group}", _broadcast)],
    lifespan=_lifespan,
)
