"""A profile page's figures, summed from its finished games (store/ratings ProfileRecord).

Pure: the games a profile played (each seat's result and figures, games/results.py) in, the
JSON of `GET /api/profiles/{profile_id}` out (docs/ratings.md lists its fields).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from codebreakers.store.ratings.base import ProfileRecord, ResultRow

JSON = dict[str, Any]
LAST_GAMES = 20
HISTORY = 50  # rated games in a rating's chart


def _played(results: list[ResultRow]) -> list[JSON]:
    """Games, wins, draws and losses per game and variant."""
    counts: dict[tuple[str, str], Counter[str]] = {}
    for r in results:
        counts.setdefault((r.game, r.variant), Counter())[r.result] += 1
    return [
        {
            "game": game,
            "variant": variant,
            "games": sum(c.values()),
            "wins": c["win"],
            "draws": c["draw"],
            "losses": c["loss"],
        }
        for (game, variant), c in sorted(counts.items())
    ]


def _figures(results: list[ResultRow]) -> dict[str, JSON]:
    """Each game's figures summed over its games, and the rates players look at."""
    sums: dict[str, Counter[str]] = {}
    for r in results:
        sums.setdefault(r.game, Counter()).update(r.figures)
    out: dict[str, JSON] = {game: dict(sorted(c.items())) for game, c in sorted(sums.items())}
    mm = out.get("mastermind")
    if mm is not None:
        mm["average_rows"] = round(mm["rows_to_break"] / mm["broken"], 2) if mm["broken"] else None
    return out


def _ratings(record: ProfileRecord) -> list[JSON]:
    history: dict[str, list[JSON]] = {}
    for r in reversed(record.results):  # oldest first
        if r.rated and r.rating is not None:
            history.setdefault(r.game, []).append(
                {"game_id": r.game_id, "rating": r.rating, "at": r.finished_at}
            )
    return [
        {
            "game": row.game,
            "rating": round(row.rating),
            "games": row.games,
            "history": history.get(row.game, [])[-HISTORY:],
        }
        for row in record.ratings
    ]


def summary(record: ProfileRecord) -> JSON:
    return {
        "profile_id": record.profile_id,
        "name": record.name,
        "member_since": record.created_at,
        "hidden": record.hidden,
        "played": _played(record.results),
        "figures": _figures(record.results),
        "ratings": _ratings(record),
        "last_games": [
            {
                "game_id": r.game_id,
                "game": r.game,
                "variant": r.variant,
                "side": r.side,
                "result": r.result,
                "rated": r.rated,
                "rating": None if r.rating is None else round(r.rating),
                "finished_at": r.finished_at,
                "replay": f"/g/{r.game_id}",
            }
            for r in record.results[:LAST_GAMES]
        ],
    }
