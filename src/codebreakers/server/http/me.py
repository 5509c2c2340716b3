"""The visitor's own profile over HTTP: `GET /api/me` (made on the first visit), `PATCH /api/me`
(name, language, hidden), `POST /api/me/sign-out`, `GET /api/me/games` (the home page's
"your games": open rooms and the last finished games), and `POST /api/me/rooms/{code}/seat`
(back to the profile's own seat in a room from a browser holding no seat token for it).

Bodies are bounded and decoded into closed Structs; a refused change changes nothing and says
why with a stable code. State-changing routes pass the Origin and content-type check of
`security.py` first, like every other write. The cookie's secret goes out only in `Set-Cookie`,
never in a body (docs/identity.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http import identity
from codebreakers.server.http.routes import (
    client_address,
    decoded_body,
    error_response,
    hub_of,
)
from codebreakers.server.rooms import model
from codebreakers.server.rooms.document import clean_name
from codebreakers.server.rooms.model import RoomStatus
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.store.base import ProfileGame, ProfileRoom, ProfileRow

# How many of each "your games" lists; rooms are read a few more, as some are over or left.
OPEN_ROOMS = 10
FINISHED_GAMES = 10


class MeChange(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    language: str | None = None
    hidden: bool | None = None


async def me_json(node: Node, profile: ProfileRow) -> dict[str, Any]:
    """What the visitor is told of its own profile."""
    passkeys = await node.ports.store.passkeys_of(profile.id)
    return {
        "profile_id": profile.id,
        "name": profile.name,
        "language": profile.language,
        "created": profile.created_at,
        "hidden": profile.hidden,
        "passkeys": len(passkeys),
        "url": f"/u/{profile.id}",
    }


def changed(profile: ProfileRow, asked: MeChange) -> ProfileRow:
    """The profile with the asked changes, each checked; Refused (nothing changed) else."""
    name = profile.name if asked.name is None else clean_name(asked.name)
    language = profile.language if asked.language is None else asked.language
    if language not in identity.LANGUAGES:
        raise Refused(ErrorCode.BAD_LANGUAGE, f"languages are {', '.join(identity.LANGUAGES)}")
    hidden = profile.hidden if asked.hidden is None else asked.hidden
    return replace(profile, name=name, language=language, hidden=hidden)


def open_room_json(row: ProfileRoom) -> dict[str, Any] | None:
    """A room the profile may go back to: not over, and its player still in it."""
    try:
        room = model.load(row.room.data)
    except msgspec.ValidationError:
        return None
    if room.status is RoomStatus.OVER or row.player_id not in room.players:
        return None
    return {
        "code": row.room.code,
        "game": room.game,
        "status": room.status,
        "player_id": row.player_id,
        "players": len(room.players),
        "joined_at": row.joined_at,
        "url": f"/r/{row.room.code}",
    }


def result_of(game: ProfileGame) -> str | None:
    """ "win", "loss" or "draw" for the profile's side; None for a game that ended without a
    winner being decided (abandoned)."""
    outcome = game.outcome or {}
    if "winner" not in outcome:
        return None
    winner = outcome["winner"]
    if winner is None:
        return "draw"
    return "win" if winner == game.side else "loss"


def finished_json(game: ProfileGame) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "game": game.game,
        "room_code": game.room_code,
        "created_at": game.created_at,
        "side": game.side,
        "result": result_of(game),
        "url": f"/g/{game.game_id}",
    }


def routes(node: Node) -> list[Route]:
    store = node.ports.store

    async def me(request: Request) -> Response:
        profile = await identity.profile_of(store, request)
        secret = None
        if profile is None:
            try:
                node.ip_guard.new_profile(client_address(request))
            except Refused as refused:
                return error_response(refused)
            language = identity.language_of(request.headers.get("accept-language"))
            profile, secret = await identity.new_profile(store, language, node.ports.clock())
        response = JSONResponse(await me_json(node, profile), headers={"Cache-Control": "no-store"})
        if secret is not None:
            identity.set_cookie(response, secret, request)
        return response

    async def change_me(request: Request) -> Response:
        try:
            profile, _ = await identity.known_profile(store, request)
            asked = await decoded_body(request, MeChange)
            new = changed(profile, asked)
            await store.update_profile(
                profile.id, name=new.name, language=new.language, hidden=new.hidden
            )
        except Refused as refused:
            return error_response(refused)
        return JSONResponse(await me_json(node, new), headers={"Cache-Control": "no-store"})

    async def sign_out(request: Request) -> Response:
        secret = identity.secret_of(request.cookies)
        if secret is not None:
            await store.forget_secret(token_hash(secret))
        response = JSONResponse({"signed_out": True})
        identity.clear_cookie(response, request)
        return response

    async def my_games(request: Request) -> Response:
        try:
            profile, _ = await identity.known_profile(store, request)
        except Refused as refused:
            return error_response(refused)
        rooms = await store.rooms_of(profile.id, 3 * OPEN_ROOMS)
        games = await store.finished_games_of(profile.id, FINISHED_GAMES)
        listed = [r for r in map(open_room_json, rooms) if r is not None][:OPEN_ROOMS]
        body = {"rooms": listed, "games": [finished_json(g) for g in games]}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    async def my_seat(request: Request) -> Response:
        try:
            profile, _ = await identity.known_profile(store, request)
            hub = await hub_of(node, request)
            try:
                pid, token = await hub.reclaim(profile.id)
            finally:
                node.release(hub)
        except Refused as refused:
            return error_response(refused)
        body = {"code": hub.code, "url": f"/r/{hub.code}", "you": pid, "token": token}
        return JSONResponse(body, headers={"Cache-Control": "no-store"})

    return [
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", change_me, methods=["PATCH"]),
        Route("/api/me/sign-out", sign_out, methods=["POST"]),
        Route("/api/me/games", my_games, methods=["GET"]),
        Route("/api/me/rooms/{code}/seat", my_seat, methods=["POST"]),
    ]
