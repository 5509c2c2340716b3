"""The leaderboards and the profiles, as JSON: `GET /api/leaderboard?game=G&page=N` and
`GET /api/profiles/{profile_id}` (docs/ratings.md).

A leaderboard lists the players of one game with at least `BOARD_MIN_GAMES` rated games, best
shown rating first, `PAGE_SIZE` a page, pages 1 to `MAX_PAGE` (the top 1,000, as lichess
lists its top 200: a page's cost grows with its offset, every row above it read and joined with
its profile; at offset 10,000 it took ~190 ms on PostgreSQL, docs/performance.md). Hidden
profiles are left out, and a hidden profile answers 404 to anyone but its owner, as if it
did not exist.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http.identity import profile_of
from codebreakers.server.http.profile_summary import summary
from codebreakers.server.http.routes import error_response
from codebreakers.store.ratings.schema import BOARD_MIN_GAMES

PAGE_SIZE = 50
MAX_PAGE = 20


def board_query(request: Request, games: frozenset[str]) -> tuple[str, int]:
    """The game and page asked for, or Refused with a stable code."""
    params = request.query_params
    game = params.get("game", "decrypto")
    if game not in games:
        raise Refused(ErrorCode.UNKNOWN_GAME, f"game: one of {', '.join(sorted(games))}")
    page_text = params.get("page", "1")
    if not (page_text.isascii() and page_text.isdigit()) or not 1 <= int(page_text) <= MAX_PAGE:
        raise Refused(ErrorCode.BAD_PAGE, f"page: a whole number from 1 to {MAX_PAGE}")
    return game, int(page_text)


def routes(node: Node) -> list[Route]:
    ratings = node.ports.ratings
    assert ratings is not None
    games = frozenset(node.ports.rules)

    async def leaderboard(request: Request) -> Response:
        try:
            game, page = board_query(request, games)
        except Refused as refused:
            return error_response(refused)
        offset = (page - 1) * PAGE_SIZE
        rows = await ratings.leaderboard(game, offset, PAGE_SIZE)
        entries = [
            {
                "rank": offset + n,
                "profile_id": row.profile_id,
                "name": row.name,
                "rating": round(row.rating),
                "games": row.games,
            }
            for n, row in enumerate(rows, 1)
        ]
        body = {
            "game": game,
            "page": page,
            "page_size": PAGE_SIZE,
            "min_games": BOARD_MIN_GAMES,
            "more": len(rows) == PAGE_SIZE and page < MAX_PAGE,
            "entries": entries,
        }
        return JSONResponse(body)

    async def profile(request: Request) -> Response:
        profile_id = request.path_params["profile_id"]
        record = await ratings.profile_record(profile_id) if len(profile_id) <= 64 else None
        if record is not None and record.hidden:
            visitor = await profile_of(node.ports.store, request)  # the identity cookie's
            if visitor is None or visitor.id != profile_id:
                record = None
        if record is None:
            return error_response(Refused(ErrorCode.PROFILE_NOT_FOUND, "no such profile"))
        return JSONResponse(summary(record))

    return [
        Route("/api/leaderboard", leaderboard),
        Route("/api/profiles/{profile_id}", profile),
    ]
