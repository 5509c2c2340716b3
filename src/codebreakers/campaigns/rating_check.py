"""Check the ratings after a campaign: every finished game settled once, every rating moved
once per rated game (docs/ratings.md, "Exactly once").

Read straight from the database (no server), as verify.py does for actions: a finished game
with no `settled_games` row lost its results and ratings; a profile whose `ratings.games`
differs from its rated `game_results` rows had an update lost or doubled (each row is written
in the same transaction as the rating's update, so the two can only disagree if the guard
failed).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from codebreakers.store import dialects
from codebreakers.store.ratings.schema import game_results, ratings, settled_games
from codebreakers.store.schema import games

JSON = dict[str, Any]


def _read(conn: sa.Connection) -> JSON:
    over = {r[0] for r in conn.execute(sa.select(games.c.id).where(games.c.over))}
    settled = {
        r[0]: r[1] for r in conn.execute(sa.select(settled_games.c.game_id, settled_games.c.rated))
    }
    rated_rows = {
        (r[0], r[1]): r[2]
        for r in conn.execute(
            sa.select(game_results.c.profile_id, game_results.c.game, sa.func.count())
            .where(game_results.c.rated)
            .group_by(game_results.c.profile_id, game_results.c.game)
        )
    }
    counted = {
        (r[0], r[1]): r[2]
        for r in conn.execute(sa.select(ratings.c.profile_id, ratings.c.game, ratings.c.games))
    }
    mismatched = sorted(
        key
        for key in rated_rows.keys() | counted.keys()
        if rated_rows.get(key, 0) != counted.get(key, 0)
    )
    return {
        "games_finished": len(over),
        "games_settled": len(settled),
        "games_rated": sum(1 for rated in settled.values() if rated),
        "ratings_lost": len(over - settled.keys()),
        "ratings_settled_unfinished": len(settled.keys() - over),
        "ratings_miscounted": len(mismatched),
        "rating_updates": sum(counted.values()),
    }


async def check_ratings(db: str) -> JSON:
    runner = dialects.runner(db)
    await runner.open()
    try:
        return await runner.read(_read)
    finally:
        await runner.close()
