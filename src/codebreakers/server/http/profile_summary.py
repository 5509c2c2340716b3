"""A profile page's figures, from its totals and its last games (store/ratings ProfileRecord).

Pure: the profile's totals per game and variant (each game's results and figures added up,
games/results.py), its last games and rated games in, the JSON of
`GET /api/profiles/{profile_id}` out (docs/ratings.md lists its fields).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from codebreakers.store.ratings.base import HISTORY, LAST_GAMES, ProfileRecord, StatsRow

JSON = dict[str, Any]


def _played(stats: list[StatsRow]) -> list[JSON]:
    """Games, wins, draws and losses per game and variant."""
    return [
        {
            "game": s.game,
            "variant": s.variant,
            "games": s.games,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
        }
        for s in sorted(stats, key=lambda s: (s.game, s.variant))
    ]


def _figures(stats: list[StatsRow]) -> dict[str, JSON]:
    """Each game's figures summed over its games, and the rates players look at."""
    sums: dict[str, Counter[str]] = {}
    for s in stats:
        sums.setdefault(s.game, Counter()).update(s.figures)
    out: dict[str, JSON] = {game: dict(sorted(c.items())) for game, c in sorted(sums.items())}
    mm = out.get("mastermind")
    if mm is not None:
        mm["average_rows"] = round(mm["rows_to_break"] / mm["broken"], 2) if mm["broken"] else None
    return out


def _ratings(record: ProfileRecord) -> list[JSON]:
    history: dict[str, list[JSON]] = {}
    for r in reversed(record.history):  # oldest first
        if r.rating is not None:
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
        "played": _played(record.stats),
        "figures": _figures(record.stats),
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
