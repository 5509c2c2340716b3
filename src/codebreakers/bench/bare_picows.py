"""The bare broadcast endpoint on picows (`codebreakers bench --bare --server picows`).

The same behaviour as `bare.py` under uvicorn, on another WebSocket stack: `/bare/{group}` joins
the group in the path, and each text a member sends is answered by one JSON text of the game's
average push (`CODEBREAKERS_BARE_SIZE`, same envelope) sent to every member of the group;
`GET /healthz` answers `ok`. picows parses and frames in Cython and calls a listener per frame,
with no ASGI, no Starlette and no task per socket, so this is the ceiling of a server that
would serve `/ws` on picows (docs/performance.md, "The transport: picows").

Same process settings as the uvicorn endpoint: uvloop, serve's GC thresholds and schedule
(`tune_gc`), the raised file-descriptor limit and listen backlog, 1 MiB frames, no
permessage-deflate (picows has none), and a keep-alive ping every 20 s as uvicorn sends.

Run as `python -m codebreakers.bench.bare_picows --port P [--host H]`.
"""

from __future__ import annotations

import argparse

import msgspec
import uvloop
from picows import (
    WSAutoPingStrategy,
    WSCloseCode,
    WSFrame,
    WSListener,
    WSMsgType,
    WSTransport,
    WSUpgradeRequest,
    WSUpgradeResponse,
    WSUpgradeResponseWithListener,
    ws_create_server,
)

from codebreakers.bench.bare import PAD
from codebreakers.server.ops.process import (
    BACKLOG,
    NOFILE,
    WS_MAX_BYTES,
    raise_nofile,
    set_gc_thresholds,
    tune_gc,
)

PATH = b"/bare/"
PING_EVERY_S = 20.0  # uvicorn's ws_ping_interval default, which the uvicorn endpoint keeps
_encode = msgspec.json.Encoder().encode

_groups: dict[bytes, set[WSTransport]] = {}


class BareMember(WSListener):
    """One socket of a group: each text it sends is fanned out to the whole group."""

    def __init__(self, group: bytes) -> None:
        super().__init__()
        self.group = group

    def on_ws_connected(self, transport: WSTransport) -> None:
        _groups.setdefault(self.group, set()).add(transport)

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        kind = frame.msg_type
        if kind is WSMsgType.TEXT:
            payload = _encode({"type": "view", "id": int(frame.get_payload_as_bytes()), "pad": PAD})
            for member in tuple(_groups.get(self.group, ())):
                member.send(WSMsgType.TEXT, payload)
        elif kind is WSMsgType.CLOSE:
            transport.send_close(WSCloseCode.OK)
            transport.disconnect()

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        members = _groups.get(self.group)
        if members is not None:
            members.discard(transport)
            if not members:
                _groups.pop(self.group, None)


def _route(request: WSUpgradeRequest) -> BareMember | WSUpgradeResponseWithListener | None:
    path = request.path
    if path.startswith(PATH) and len(path) > len(PATH):
        return BareMember(path[len(PATH) :])
    if path == b"/healthz":
        return WSUpgradeResponseWithListener(WSUpgradeResponse.create_ok_response(b"ok"), None)
    return None  # 404


async def serve(host: str, port: int) -> None:
    tune_gc()
    server = await ws_create_server(
        _route,
        host,
        port,
        enable_auto_ping=True,
        auto_ping_idle_timeout=PING_EVERY_S,
        auto_ping_reply_timeout=PING_EVERY_S,
        auto_ping_strategy=WSAutoPingStrategy.PING_PERIODICALLY,
        max_frame_size=WS_MAX_BYTES,
        backlog=BACKLOG,
    )
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    raise_nofile(NOFILE)
    set_gc_thresholds()
    uvloop.run(serve(args.host, args.port))


if __name__ == "__main__":
    main()
