"""The WebSocket endpoint: check the origin, read frames, parse them, dispatch, report errors.

Nothing a client sends can take the loop down: every frame is size-checked and parsed into one
of the closed set of messages, every refusal becomes an `error` frame with a stable code, and an
unexpected exception is logged and answered with `internal_error` while the socket (and every
other socket) carries on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import BUSY_DETAIL, ErrorCode, Refused
from codebreakers.server.http import identity
from codebreakers.server.http.routes import client_address
from codebreakers.server.http.security import same_origin
from codebreakers.server.ops.config import BOT_LEVELS
from codebreakers.server.ops.logs import BoundLogger, get_logger
from codebreakers.server.ops.ratelimit import Bucket
from codebreakers.server.rooms import document, room_codes
from codebreakers.server.rooms.hub import RoomHub
from codebreakers.server.rooms.model import Room
from codebreakers.server.wire.connection import Connection
from codebreakers.server.wire.messages import (
    MAX_FRAME_BYTES,
    Act,
    AddBot,
    Chat,
    Check,
    ClientMessage,
    Error,
    Hello,
    Join,
    LeaveSeat,
    Move,
    Ping,
    PlayAgain,
    Pong,
    Rematch,
    Remove,
    Rename,
    SetOptions,
    SetPublic,
    Start,
    TakeSeat,
    TransferHost,
    encode,
    error_id,
    parse_client,
)
from codebreakers.server.wire.socket import Socket
from codebreakers.server.wire.starlette_socket import StarletteSocket
from codebreakers.store.base import StoreBusy

log = get_logger(__name__)


def origin_allowed(handshake: HTTPConnection, public_url: str | None) -> bool:
    """No Origin (a tool, not a browser) or the site's own: the public URL's scheme, host and
    port, or the socket's own scheme and the Host it asked for (server/http/security.py)."""
    origin = handshake.headers.get("origin")
    host = handshake.headers.get("host")
    return origin is None or same_origin(origin, public_url, handshake.url.scheme, host)


async def _refuse(socket: Socket, code: str, detail: str, close_code: int) -> None:
    """Say why in a frame the client can translate, then close."""
    await socket.send(encode(Error(None, code, detail)))
    await socket.close(close_code)


async def asgi_endpoint(node: Node, ws: WebSocket) -> None:
    """`/ws` as a Starlette route (uvicorn, granian, the test client)."""
    await endpoint(node, await StarletteSocket.accept(ws))


async def endpoint(node: Node, socket: Socket) -> None:
    """One accepted socket's session, whichever server carries it (server/wire/socket.py)."""
    if not origin_allowed(socket.handshake, node.config.public_url):
        await _refuse(socket, ErrorCode.BAD_ORIGIN, "this site's pages only", 1008)
        return
    address = client_address(socket.handshake)
    try:
        node.ip_guard.admit(address)
    except Refused as refused:  # 1013: try again later
        await _refuse(socket, refused.code, refused.detail, 1013)
        return
    try:
        await _serve(node, socket, address)
    finally:
        node.ip_guard.release(address)


async def _serve(node: Node, socket: Socket, address: str) -> None:
    conn = Connection(socket, Bucket(node.config.frame_burst, node.config.frames_per_s))
    hub: RoomHub | None = None
    try:
        while True:
            try:
                async with asyncio.timeout(conn.silence_limit):
                    frame = await socket.receive()
            except TimeoutError:  # pinged, then silent: its network is gone (docs/protocol.md)
                break
            if frame is None:
                break
            conn.hold()  # what the frame causes on this socket leaves in one write
            try:
                hub = await _handle(node, conn, hub, frame, address)
            finally:
                conn.release()
    finally:
        if hub is not None:
            await hub.detach(conn)
            node.release(hub)
        await conn.stop()


async def _handle(
    node: Node, conn: Connection, hub: RoomHub | None, frame: str | bytes, address: str
) -> Any:
    """Handle one frame; returns the socket's hub (set by `hello`)."""
    msg_id = None
    try:
        if not conn.frames.take(node.ports.clock()):
            raise Refused(ErrorCode.RATE_LIMITED, "too many frames; slow down")
        node.ip_guard.frame(address)
        msg = parse_client(frame)
        msg_id = getattr(msg, "id", None)
        if isinstance(msg, Ping):
            conn.silence_limit = node.config.silent_socket_s
            conn.push(encode(Pong(msg.id)))
            return hub
        if isinstance(msg, Hello):
            if hub is not None:
                raise Refused(ErrorCode.HELLO_TWICE, "this socket is already in a room")
            return await _hello(node, conn, msg)
        if hub is None:
            raise Refused(ErrorCode.HELLO_FIRST, "send hello first")
        await _dispatch(node, hub, conn, msg)
    except Refused as refused:
        if msg_id is None and len(frame) <= MAX_FRAME_BYTES:  # name the frame when it can
            msg_id = error_id(frame)
        conn.push(encode(Error(msg_id, refused.code, refused.detail)))
    except StoreBusy:  # the database could not take it in time: nothing was done
        _socket_log(conn, hub).warning("store busy: message refused")
        conn.push(encode(Error(msg_id, ErrorCode.BUSY, BUSY_DETAIL)))
    except Exception:
        _socket_log(conn, hub).exception(
            "unexpected failure handling a frame", frame=type(frame).__name__
        )
        conn.push(
            encode(Error(msg_id, ErrorCode.INTERNAL_ERROR, "the server failed; nothing applied"))
        )
    return hub


def _socket_log(conn: Connection, hub: RoomHub | None) -> BoundLogger:
    """The logger for a line about this socket, bound to what is known of it now: its room, the
    player it speaks for, and the game running there with the seat that player plays (`seat`
    absent for a spectator). Made when a line is logged rather than kept per socket: every
    socket's own objects are what the young collector walks (server/ops/process.py)."""
    bound = log.bind(room=conn.room, player=conn.player)
    runner = hub.runner if hub is not None else None
    if runner is not None:
        bound = bound.bind(game=runner.game_id)
        if conn.player is not None and conn.player in runner.seats():
            bound = bound.bind(seat=conn.player)
    return bound


async def _hello(node: Node, conn: Connection, msg: Hello) -> RoomHub:
    code = room_codes.normalise(msg.room)
    hub = await node.hub(code) if code else None
    if hub is None:
        raise Refused(ErrorCode.ROOM_NOT_FOUND, "no room has this code")
    await hub.attach(conn, msg)
    return hub


Handler = Callable[[Node, RoomHub, Connection, Any], Awaitable[None]]


async def _dispatch(node: Node, hub: RoomHub, conn: Connection, msg: ClientMessage) -> None:
    hub.throttle(conn)
    with node.in_flight.track(), node.metrics.handling(type(msg).__name__):
        await _HANDLERS[type(msg)](node, hub, conn, msg)
    await hub.publish()


def _room_op(op: Callable[[Any, Room, str], Room]) -> Handler:
    """A handler applying the pure room operation `op(msg, room, actor)`."""

    async def handle(node: Node, hub: RoomHub, conn: Connection, msg: Any) -> None:
        await hub.room_op(conn, msg.id, partial(op, msg))

    return handle


async def _join(node: Node, hub: RoomHub, conn: Connection, msg: Join) -> None:
    """The newcomer's profile is the one the handshake's identity cookie names (never one a
    seat token could lend: a token only says which player a socket acts for)."""
    profile = await identity.profile_of(node.ports.store, conn.socket.handshake)
    await hub.join(conn, msg.id, msg.name, msg.watch, profile.id if profile else None)


async def _act(node: Node, hub: RoomHub, conn: Connection, msg: Act) -> None:
    await hub.act(conn, msg.id, msg.action)


async def _check(node: Node, hub: RoomHub, conn: Connection, msg: Check) -> None:
    await hub.check(conn, msg.id, msg.action)


async def _chat(node: Node, hub: RoomHub, conn: Connection, msg: Chat) -> None:
    await hub.say(conn, msg.id, msg.channel, msg.text)


async def _start(node: Node, hub: RoomHub, conn: Connection, msg: Start | Rematch) -> None:
    await hub.begin(conn, msg.id, rematch=isinstance(msg, Rematch))


async def _play_again(node: Node, hub: RoomHub, conn: Connection, msg: PlayAgain) -> None:
    await hub.play_again(conn, msg.id)


def _add_bot(node: Node, msg: AddBot, room: Room, actor: str) -> Room:
    if node.ports.make_bot is None or room.game not in node.ports.bot_games:
        raise Refused(ErrorCode.BOTS_UNAVAILABLE, f"this server has no bots for {room.game}")
    if msg.level not in BOT_LEVELS:
        raise Refused(ErrorCode.BAD_LEVEL, f"levels are {', '.join(BOT_LEVELS)}")
    return document.add_bot(room, actor, msg.team, msg.index, msg.level, msg.id)[0]


def _set_options(hub: RoomHub, msg: SetOptions, room: Room, actor: str) -> Room:
    checked = hub.rules.check_options(msg.options)
    if not isinstance(checked, dict):
        raise Refused(checked.code, checked.detail)
    return document.set_options(room, actor, checked, hub.rules.team_sizes(checked), msg.id)


async def _add_bot_op(node: Node, hub: RoomHub, conn: Connection, msg: AddBot) -> None:
    await hub.room_op(conn, msg.id, partial(_add_bot, node, msg))


async def _set_options_op(node: Node, hub: RoomHub, conn: Connection, msg: SetOptions) -> None:
    await hub.room_op(conn, msg.id, partial(_set_options, hub, msg))


_HANDLERS: dict[type, Handler] = {
    Join: _join,
    Act: _act,
    Check: _check,
    Chat: _chat,
    Start: _start,
    Rematch: _start,
    PlayAgain: _play_again,
    AddBot: _add_bot_op,
    SetOptions: _set_options_op,
    Rename: _room_op(lambda m, d, a: document.rename(d, a, m.name, m.id)),
    TakeSeat: _room_op(lambda m, d, a: document.take_seat(d, a, m.team, m.index, m.id)),
    LeaveSeat: _room_op(lambda m, d, a: document.leave_seat(d, a, m.id)),
    Move: _room_op(lambda m, d, a: document.move(d, a, m.player, m.team, m.index, m.id)),
    Remove: _room_op(lambda m, d, a: document.remove(d, a, m.player, m.id)),
    SetPublic: _room_op(lambda m, d, a: document.set_public(d, a, m.public, m.id)),
    TransferHost: _room_op(lambda m, d, a: document.transfer_host(d, a, m.player, m.id)),
}
