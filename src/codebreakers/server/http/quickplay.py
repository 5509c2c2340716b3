"""One-click ways in: `POST /api/play-now` (a room with bots, the visitor seated, the game
started) and `POST /api/quick-join` (the public room closest to starting, or a new one).

Nothing here changes a room by itself: the visitor joins, the bots sit and the game starts
through the room hub's own operations (`join`, `room_op` with `document.add_bot`, `begin`), the
same path a browser's socket takes, so durability, pushes and bots behave as for any room. The
hub talks to sockets; an HTTP request has none, so a `_Seat` stands in for one and keeps the
frames the hub sends it, of which only the `joined` frame (the seat token) is read.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from codebreakers.games.base import Rejection
from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http import identity
from codebreakers.server.http.routes import (
    base_url,
    client_address,
    decoded_body,
    error_response,
)
from codebreakers.server.rooms import document, levels, model
from codebreakers.server.rooms.hub import RoomHub
from codebreakers.server.rooms.model import Room, RoomStatus
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.store.base import RoomRow

JSON = dict[str, Any]
Lobby = tuple[RoomRow, Room]  # a listed room's row and its document, decoded once
BOT_LEVEL = "normal"
LEVEL_STEP = 100  # ratings closer than this are as good a match
QUICK_GAME = "decrypto"


class PlayNow(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    name: str
    lang: str = "en"


MAX_HELD = 32


class Held(msgspec.Struct, forbid_unknown_fields=True):
    """A seat the browser already holds: a room code and that room's seat token."""

    code: Annotated[str, msgspec.Meta(max_length=16)]
    token: Annotated[str, msgspec.Meta(max_length=64)]


class QuickJoin(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    lang: str = "en"
    game: str = QUICK_GAME
    held: Annotated[list[Held], msgspec.Meta(max_length=MAX_HELD)] = []


class _Seat:
    """A stand-in socket (`rooms.fanout.Socket`) for the HTTP visitor while the hub seats it."""

    __slots__ = ("frames", "player", "room")

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.player: str | None = None
        self.room: str | None = None

    def push(self, text: bytes) -> None:
        self.frames.append(text)

    def close_soon(self) -> None:
        """Nothing to close: the request answers on its own."""

    def token(self) -> str:
        for frame in self.frames:
            message = msgspec.json.decode(frame)
            if message.get("type") == "joined":
                return str(message["token"])
        raise RuntimeError("the hub seated the visitor without a token")


def options_for(node: Node, game: str, lang: str) -> JSON:
    """The game's options with the word pool in the visitor's language when the game has one."""
    rules = node.ports.rules.get(game)
    if rules is None:
        raise Refused(ErrorCode.UNKNOWN_GAME, f"no game {game!r} here")
    in_lang = rules.check_options({"words": lang})
    return {"words": lang} if not isinstance(in_lang, Rejection) else {}


def closest_to_start(
    rooms: list[Lobby],
    game: str,
    name: str,
    room_levels: list[float | None],
    visitor: float | None,
    now: float,
) -> RoomRow | None:
    """The waiting public room of `game` with a free seat, where no one goes by the visitor's
    `name` yet, whose players' level (rooms/levels.py) is nearest the `visitor`'s rating, by
    steps of LEVEL_STEP; then the one that needs the fewest players to start; then the one
    with most seated players; then the oldest. A room farther from the visitor than its
    window (which widens the longer it has waited) is passed over: the visitor gets a room of
    their own instead, which the next visitors near their rating will find."""
    best: tuple[tuple[int, int, int, float], RoomRow] | None = None
    for (row, room), level in zip(rooms, room_levels, strict=True):
        if room.game != game or room.status is not RoomStatus.WAITING:
            continue
        if not document.free_seats(room) or not document.name_free(room, name):
            continue
        gap = levels.distance(level, visitor)
        if gap > levels.window(now - row.created_at):
            continue
        seated = {team: sum(p is not None for p in slots) for team, slots in room.seats.items()}
        missing = sum(max(0, lo - seated[team]) for team, (lo, _hi) in room.sizes.items())
        key = (int(gap // LEVEL_STEP), missing, -sum(seated.values()), row.created_at)
        if best is None or key < best[0]:
            best = (key, row)
    return best[1] if best else None


def already_seated(rooms: list[Lobby], held: list[Held]) -> tuple[RoomRow, str, str] | None:
    """(room row, player id, token) of a waiting room among `rooms` where one of the browser's
    seat tokens still names a player: quick join takes the visitor back there instead of
    joining it a second time."""
    by_code = {row.code: (row, room) for row, room in rooms}
    for seat in held:
        found = by_code.get(seat.code.upper())
        pid = document.player_for_token(found[1], token_hash(seat.token)) if found else None
        if found is not None and pid is not None:
            return found[0], pid, seat.token
    return None


async def join_as(hub: RoomHub, name: str, profile_id: str | None) -> tuple[str, str]:
    """Join `name` to the room as a browser's `join` would, with the profile the request's
    cookie names; returns (player id, seat token)."""
    seat = _Seat()
    await hub.join(seat, f"http-{secrets.token_hex(4)}", name, profile_id=profile_id)
    await hub.detach(seat)
    assert seat.player is not None
    return seat.player, seat.token()


async def fill_and_start(hub: RoomHub, host: str) -> None:
    """As the host: a bot in every slot a team needs to start (document.add_bot), then start."""
    seat = _Seat()
    seat.player = seat.room = host
    for team, (lo, _hi) in hub.data.sizes.items():
        for index in range(lo):
            if hub.data.seats[team][index] is None:
                await hub.room_op(seat, f"bot-{team}-{index}", _bot_in(team, index))
    await hub.begin(seat, "play-start", rematch=False)


def _bot_in(team: str, index: int) -> Callable[[Room, str], Room]:
    """The room operation seating a bot in this slot (its id names the slot)."""

    def add(room: Room, actor: str) -> Room:
        return document.add_bot(room, actor, team, index, BOT_LEVEL, f"bot-{team}-{index}")[0]

    return add


def routes(node: Node) -> list[Route]:
    quick_lock = asyncio.Lock()
    ratings = node.ports.ratings
    assert ratings is not None

    async def profile_id(request: Request) -> str | None:
        """The profile the request's cookie names, read once per request."""
        profile = await identity.profile_of(node.ports.store, request)
        return profile.id if profile else None

    async def _matching(
        rooms: list[Lobby], asked: QuickJoin, profile: str | None
    ) -> RoomRow | None:
        """The room for this visitor, by their rating (the cookie's profile) and the rooms'."""
        visitor = await levels.rating_of(ratings, profile, asked.game)
        room_levels = await levels.levels(ratings, [room for _, room in rooms])
        now = node.ports.clock()
        return closest_to_start(rooms, asked.game, asked.name, room_levels, visitor, now)

    async def play_now(request: Request) -> Response:
        try:
            asked = await decoded_body(request, PlayNow)
            document.clean_name(asked.name)
            if asked.game not in node.ports.bot_games or node.ports.make_bot is None:
                raise Refused(ErrorCode.BOTS_UNAVAILABLE, f"no bots for {asked.game!r} here")
            options = options_for(node, asked.game, asked.lang)
            node.ip_guard.new_room(client_address(request))
            hub = await node.create_room(asked.game, options, False, base_url(request))
            pid, token = await join_as(hub, asked.name, await profile_id(request))
            await fill_and_start(hub, pid)
        except Refused as refused:
            return error_response(refused)
        await hub.publish()
        url = hub.description()["url"]
        return JSONResponse(
            {"code": hub.code, "url": url, "you": pid, "token": token}, status_code=201
        )

    async def quick_join(request: Request) -> Response:
        try:
            asked = await decoded_body(request, QuickJoin)
            document.clean_name(asked.name)
            options = options_for(node, asked.game, asked.lang)
            profile = await profile_id(request)
            async with quick_lock:  # the next visitor sees this one seated: no twin rooms
                rows = await node.ports.store.list_rooms(public=True, waiting=True, limit=50)
                rooms = [(row, model.load(row.data)) for row in rows if row.game == asked.game]
                mine = already_seated(rooms, asked.held)
                found = mine[0] if mine else await _matching(rooms, asked, profile)
                hub = await node.hub(found.code) if found is not None else None
                created = hub is None
                if hub is None:
                    node.ip_guard.new_room(client_address(request))
                    hub = await node.create_room(asked.game, options, True, base_url(request))
                if mine and hub.code == mine[0].code:
                    pid, token = mine[1], mine[2]
                else:
                    pid, token = await join_as(hub, asked.name, profile)
        except Refused as refused:
            return error_response(refused)
        await hub.publish()
        url = hub.description()["url"]
        node.release(hub)
        return JSONResponse(
            {
                "code": hub.code,
                "url": url,
                "you": pid,
                "token": token,
                "created": created,
                "offer_bots_after_s": node.config.offer_bots_after_s,
            }
        )

    return [
        Route("/api/play-now", play_now, methods=["POST"]),
        Route("/api/quick-join", quick_join, methods=["POST"]),
    ]
