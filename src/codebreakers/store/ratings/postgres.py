"""The ratings' SQL for PostgreSQL, run on the PostgreSQL store's pooled connections.

Several nodes may end games at once, and two finishes of the same game may race (a restart,
a node catching up): the `settled_games` insert is the guard (a second insert waits for the
first transaction, then inserts nothing), and the skills read for an update are locked first
(`FOR UPDATE`, in profile order so two games sharing players can't deadlock), with missing
rows inserted beforehand so there is a row to lock.
"""

from __future__ import annotations

import asyncpg

from codebreakers import skill
from codebreakers.games.results import GameResults
from codebreakers.store.postgres import queries
from codebreakers.store.ratings.base import (
    HISTORY,
    JSON,
    LAST_GAMES,
    RESULT_COLUMNS,
    STATS_COLUMNS,
    BoardRow,
    ProfileRecord,
    RatingRow,
    ResultRow,
    StatsRow,
)
from codebreakers.store.ratings.schema import BOARD_PAGE
from codebreakers.store.ratings.settle import Seated, added_stats, rated_sides, settle

# A game's results, one row per recorded seat, from one array per column.
_INSERT_RESULTS = (
    f"INSERT INTO game_results ({RESULT_COLUMNS})"
    " SELECT g, s, p, gm, v, sd, rs, f::jsonb, rd, rt, at"
    " FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],"
    " $7::text[], $8::text[], $9::bool[], $10::float8[], $11::float8[])"
    " AS t(g, s, p, gm, v, sd, rs, f, rd, rt, at)"
)
# ... with each profile's totals added to (profile_stats: one row per profile and variant, in
# profile order; the figures summed key by key), in the same statement (one round trip) ...
_ADD_STATS = (
    "INSERT INTO profile_stats AS s"
    " (profile_id, game, variant, games, wins, draws, losses, figures)"
    " SELECT p, $13, v, n, w, d, l, f::jsonb FROM unnest($12::text[], $14::text[], $15::int[],"
    " $16::int[], $17::int[], $18::int[], $19::text[]) AS t(p, v, n, w, d, l, f) ORDER BY p, v"
    " ON CONFLICT (profile_id, game, variant) DO UPDATE SET games = s.games + excluded.games,"
    " wins = s.wins + excluded.wins, draws = s.draws + excluded.draws,"
    " losses = s.losses + excluded.losses, figures = (SELECT coalesce(jsonb_object_agg(k,"
    " coalesce((s.figures ->> k)::bigint, 0) + coalesce((excluded.figures ->> k)::bigint, 0)),"
    " '{}'::jsonb) FROM jsonb_object_keys(s.figures || excluded.figures) AS k)"
)
_RECORD_RESULTS = f"WITH results AS ({_INSERT_RESULTS}) {_ADD_STATS}"
# ... and, for a rated game, the rated profiles' new skills.
_RECORD_RESULTS_AND_RATE = (
    f"WITH results AS ({_INSERT_RESULTS}), stats AS ({_ADD_STATS})"
    " UPDATE ratings r SET mu = n.mu, sigma = n.sigma, rating = n.rating,"
    " games = r.games + 1, updated_at = $25"
    " FROM unnest($20::text[], $21::float8[], $22::float8[], $23::float8[])"
    " AS n(profile_id, mu, sigma, rating)"
    " WHERE r.profile_id = n.profile_id AND r.game = $24"
)
_BOARD_PAGE = BOARD_PAGE.format(game="$1", limit="$2", offset="$3")
_LOCK_SKILLS = (
    "SELECT profile_id, mu, sigma FROM ratings WHERE game = $1"
    " AND profile_id = ANY($2::text[]) ORDER BY profile_id FOR UPDATE"
)


async def finish_game(
    db: asyncpg.Connection,
    game_id: str,
    outcome: JSON,
    results: GameResults | None,
    rated: bool,
    now: float,
) -> bool:
    game = await queries.finish_game(db, game_id, outcome)
    if results is None:
        return False
    players = [
        Seated(r["seat"], r["profile_id"], r["human"])
        for r in await db.fetch(
            "SELECT seat, profile_id, human FROM game_players WHERE game_id = $1", game_id
        )
    ]
    sides = rated_sides(results, players, rated)
    inserted = await db.execute(
        "INSERT INTO settled_games (game_id, rated, at) VALUES ($1, $2, $3)"
        " ON CONFLICT (game_id) DO NOTHING",
        game_id,
        sides is not None,
        now,
    )
    if inserted != "INSERT 0 1":
        return False  # settled before: a second finish changes nothing
    ids = sorted(p for side in (sides or {}).values() for p in side)
    skills = await _locked_skills(db, game, ids, now) if ids else {}
    settled = settle(game_id, game, results, players, sides, skills, now)
    if not settled.results:
        return True
    columns = list(zip(*(
        (r.game_id, r.seat, r.profile_id, r.game, r.variant, r.side, r.result,
         queries.json_text(r.figures), r.rated, r.rating, r.finished_at)
        for r in settled.results
    ), strict=True))  # fmt: skip
    added = added_stats(settled.results)
    totals = list(added.values())
    stats = [
        [p for p, _ in added],
        game,
        [t.variant for t in totals],
        [t.games for t in totals],
        [t.wins for t in totals],
        [t.draws for t in totals],
        [t.losses for t in totals],
        [queries.json_text(t.figures) for t in totals],
    ]
    if not settled.skills:
        await db.execute(_RECORD_RESULTS, *columns, *stats)
        return True
    pids = list(settled.skills)
    new = [settled.skills[p] for p in pids]
    await db.execute(
        _RECORD_RESULTS_AND_RATE,
        *columns,
        *stats,
        pids,
        [s.mu for s in new],
        [s.sigma for s in new],
        [s.shown for s in new],
        game,
        now,
    )
    return True


async def _locked_skills(
    db: asyncpg.Connection, game: str, ids: list[str], now: float
) -> dict[str, skill.Skill]:
    """The current skill of each profile of `ids` (sorted) in `game`, their rows locked until
    the transaction ends. A profile's first rated game makes its row first (fresh skill, its
    profile's `hidden`, read under a share lock so that a change of the profile waits for this
    game or this game for it), then locks it like the others."""
    skills = {r["profile_id"]: skill.Skill(r["mu"], r["sigma"]) for r in await db.fetch(
        _LOCK_SKILLS, game, ids
    )}  # fmt: skip
    missing = [p for p in ids if p not in skills]
    if missing:
        fresh = skill.Skill()
        await db.execute(
            "INSERT INTO ratings (profile_id, game, mu, sigma, rating, games, updated_at, hidden)"
            " SELECT id, $2, $3, $4, $5, 0, $6, hidden FROM profiles"
            " WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE"
            " ON CONFLICT (profile_id, game) DO NOTHING",
            missing,
            game,
            fresh.mu,
            fresh.sigma,
            fresh.shown,
            now,
        )
        for r in await db.fetch(_LOCK_SKILLS, game, missing):
            skills[r["profile_id"]] = skill.Skill(r["mu"], r["sigma"])
    return skills


async def leaderboard(db: asyncpg.Connection, game: str, offset: int, limit: int) -> list[BoardRow]:
    rows = await db.fetch(_BOARD_PAGE, game, limit, offset)
    return [BoardRow(*r) for r in rows]


async def ratings_of(db: asyncpg.Connection, profile_ids: list[str], game: str) -> dict[str, float]:
    if not profile_ids:
        return {}
    rows = await db.fetch(
        "SELECT profile_id, rating FROM ratings WHERE game = $1 AND profile_id = ANY($2::text[])",
        game,
        profile_ids,
    )
    return {r[0]: r[1] for r in rows}


async def profile_record(db: asyncpg.Connection, profile_id: str) -> ProfileRecord | None:
    found = await db.fetchrow(
        "SELECT name, created_at, hidden FROM profiles WHERE id = $1", profile_id
    )
    if found is None:
        return None
    results = await db.fetch(
        f"SELECT {RESULT_COLUMNS} FROM game_results WHERE profile_id = $1"
        f" ORDER BY finished_at DESC, game_id, seat LIMIT {LAST_GAMES}",
        profile_id,
    )
    ratings = await db.fetch(
        "SELECT game, mu, sigma, rating, games FROM ratings WHERE profile_id = $1 ORDER BY game",
        profile_id,
    )
    stats = await db.fetch(
        f"SELECT {STATS_COLUMNS} FROM profile_stats WHERE profile_id = $1 ORDER BY game, variant",
        profile_id,
    )
    history = await db.fetch(  # the last rated games of each game the profile is rated in
        f"SELECT h.* FROM ratings g CROSS JOIN LATERAL (SELECT {RESULT_COLUMNS} FROM game_results"
        " WHERE profile_id = $1 AND game = g.game AND rated"
        f" ORDER BY finished_at DESC, game_id, seat LIMIT {HISTORY}) h WHERE g.profile_id = $1"
        " ORDER BY h.finished_at DESC, h.game_id, h.seat",
        profile_id,
    )
    return ProfileRecord(
        profile_id,
        found[0],
        found[1],
        found[2],
        [ResultRow(*r) for r in results],
        [RatingRow(*r) for r in ratings],
        [StatsRow(*r) for r in stats],
        [ResultRow(*r) for r in history],
    )
