"""Plain HTTP: the client's page and files, health, rooms, share QR codes, records, replays.

Errors have the same stable codes as the WebSocket's, in `{"error": {"code", "detail"}}`.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import segno
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http import readiness, replays, static
from codebreakers.server.http.records import record_for
from codebreakers.server.rooms import room_codes
from codebreakers.server.rooms.hub import RoomHub

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
T = TypeVar("T")
MAX_BODY = 64 * 1024
STATUS: dict[str, int] = {
    ErrorCode.ROOM_NOT_FOUND: 404,
    ErrorCode.GAME_NOT_FOUND: 404,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.PROFILE_NOT_FOUND: 404,
    ErrorCode.BAD_TOKEN: 401,
    ErrorCode.NO_PROFILE: 401,
    ErrorCode.NOT_YOUR_ROOM: 403,
    ErrorCode.BAD_ORIGIN: 403,
    ErrorCode.FRAME_TOO_LARGE: 413,
    ErrorCode.REPLAY_TOO_LONG: 413,
    ErrorCode.GAME_NOT_OVER: 409,
    ErrorCode.BAD_CONTENT_TYPE: 415,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.BUSY: 503,
}


def error_response(refused: Refused) -> JSONResponse:
    body = {"error": {"code": refused.code, "detail": refused.detail}}
    return JSONResponse(body, status_code=STATUS.get(refused.code, 400))


def client_address(request: HTTPConnection) -> str:
    """The peer's address (the forwarded one behind a listed proxy: server/ops/proxies.py)."""
    return request.client.host if request.client else "unknown"


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def bounded_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request body, refused as soon as it grows past `limit` (never read whole first)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(ErrorCode.FRAME_TOO_LARGE, f"a request body holds at most {limit} bytes")
    return bytes(body)


async def decoded_body(request: Request, kind: type[T], limit: int = MAX_BODY) -> T:
    """The bounded JSON body as `kind`: bad JSON is `bad_json`, wrong fields `bad_message`
    (every JSON route's codes)."""
    body = await bounded_body(request, limit)
    try:
        return msgspec.json.decode(body, type=kind)
    except msgspec.ValidationError as exc:
        raise Refused(ErrorCode.BAD_MESSAGE, str(exc)) from None
    except msgspec.DecodeError as exc:
        raise Refused(ErrorCode.BAD_JSON, str(exc)) from None
    except RecursionError:  # msgspec decodes `Any` fields recursively
        raise Refused(ErrorCode.BAD_MESSAGE, "nested too deeply") from None


async def hub_of(node: Node, request: Request) -> RoomHub:
    """The hub of the room whose code is in the path; Refused (room_not_found) else."""
    code = room_codes.normalise(request.path_params["code"])
    hub = await node.hub(code) if code else None
    if hub is None:
        raise Refused(ErrorCode.ROOM_NOT_FOUND, "no room has this code")
    return hub


def _replay_response(body: bytes, gzipped: bool) -> Response:
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"} if gzipped else {}
    return Response(body, media_type="application/json", headers=headers)


def _gzip_accepted(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "")


class RoomCreate(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    options: dict[str, Any] = {}
    public: bool = False


def routes(node: Node) -> list[Route]:
    async def index(request: Request) -> Response:
        page = static.index_page(WEB_DIR)  # naming the build's files (server/http/static.py)
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-cache"})

    async def healthz(request: Request) -> Response:
        # 503 once a graceful shutdown began, so a load balancer stops sending players here.
        # A lost bus doesn't fail it: the node polls the store meanwhile (see /metrics).
        if node.draining:
            return JSONResponse({"status": "draining"}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        ready, parts = await readiness.check(node)
        status = "ready" if ready else "not_ready"
        return JSONResponse({"status": status, **parts}, status_code=200 if ready else 503)

    async def create_room(request: Request) -> Response:
        try:
            asked = await decoded_body(request, RoomCreate)
            node.ip_guard.new_room(client_address(request))
            hub = await node.create_room(asked.game, asked.options, asked.public, base_url(request))
        except Refused as refused:
            return error_response(refused)
        room = hub.description()
        return JSONResponse({"code": hub.code, "url": room["url"], "room": room}, status_code=201)

    async def list_rooms(request: Request) -> Response:
        return JSONResponse({"rooms": msgspec.to_builtins(await node.open_rooms())})

    async def room(request: Request) -> Response:
        try:
            hub = await hub_of(node, request)
        except Refused as refused:
            return error_response(refused)
        description = hub.description()
        node.release(hub)
        return JSONResponse(description)

    async def qr(request: Request) -> Response:
        try:
            hub = await hub_of(node, request)
        except Refused as refused:
            return error_response(refused)
        url = hub.description()["url"]
        node.release(hub)
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def record(request: Request) -> Response:
        try:
            found = await record_for(
                node.ports, request.path_params["game_id"], request.headers.get("x-seat-token")
            )
        except Refused as refused:
            return error_response(refused)
        return JSONResponse(found)

    async def replay(request: Request) -> Response:
        gzipped = _gzip_accepted(request)
        try:
            viewpoint = request.query_params.get("as")
            body = await replays.stored_replay(
                node.ports, request.path_params["game_id"], viewpoint, gzipped
            )
        except Refused as refused:
            return error_response(refused)
        return _replay_response(body, gzipped)

    async def replay_upload(request: Request) -> Response:
        gzipped = _gzip_accepted(request)
        try:
            record = await bounded_body(request, replays.MAX_RECORD_BYTES)
            body = await replays.uploaded_replay(record, request.query_params.get("as"), gzipped)
        except Refused as refused:
            return error_response(refused)
        return _replay_response(body, gzipped)

    return [
        Route("/", index),
        Route("/r/{code}", index),
        Route("/g/{game_id}", index),
        Route("/replay", index),
        Route("/leaderboard", index),
        Route("/u/{profile_id}", index),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{code}", room),
        Route("/api/rooms/{code}/qr.svg", qr),
        Route("/api/games/{game_id}/record", record),
        Route("/api/games/{game_id}/replay", replay),
        Route("/api/replay", replay_upload, methods=["POST"]),
    ]
