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
    JSON,
    RESULT_COLUMNS,
    BoardRow,
    ProfileRecord,
    RatingRow,
    ResultRow,
)
from codebreakers.store.ratings.schema import BOARD_MIN_GAMES
from codebreakers.store.ratings.settle import Seated, rated_sides, settle


async def finish_game(
    db: asyncpg.Connection,
    game_id: str,
    outcome: JSON,
    results: GameResults | None,
    rated: bool,
    now: float,
) -> bool:
    await queries.finish_game(db, game_id, outcome)
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
    game = await db.fetchval("SELECT game FROM games WHERE id = $1", game_id)
    ids = sorted(p for side in (sides or {}).values() for p in side)
    skills = {p: skill.Skill() for p in ids}
    if ids:
        fresh = skill.Skill()
        await db.execute(
            "INSERT INTO ratings (profile_id, game, mu, sigma, rating, games, updated_at)"
            " SELECT p, $2, $3, $4, $5, 0, $6 FROM unnest($1::text[]) AS p ORDER BY p"
            " ON CONFLICT (profile_id, game) DO NOTHING",
            ids,
            game,
            fresh.mu,
            fresh.sigma,
            fresh.shown,
            now,
        )
        for r in await db.fetch(
            "SELECT profile_id, mu, sigma FROM ratings WHERE game = $1"
            " AND profile_id = ANY($2::text[]) ORDER BY profile_id FOR UPDATE",
            game,
            ids,
        ):
            skills[r["profile_id"]] = skill.Skill(r["mu"], r["sigma"])
    settled = settle(game_id, game, results, players, sides, skills, now)
    if settled.results:
        await db.executemany(
            f"INSERT INTO game_results ({RESULT_COLUMNS})"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [
                (
                    r.game_id,
                    r.seat,
                    r.profile_id,
                    r.game,
                    r.variant,
                    r.side,
                    r.result,
                    r.figures,
                    r.rated,
                    r.rating,
                    r.finished_at,
                )
                for r in settled.results
            ],
        )
    if settled.skills:
        pids = list(settled.skills)
        await db.execute(
            "UPDATE ratings r SET mu = n.mu, sigma = n.sigma, rating = n.rating,"
            " games = r.games + 1, updated_at = $6"
            " FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[])"
            " AS n(profile_id, mu, sigma, rating)"
            " WHERE r.profile_id = n.profile_id AND r.game = $5",
            pids,
            [settled.skills[p].mu for p in pids],
            [settled.skills[p].sigma for p in pids],
            [settled.skills[p].shown for p in pids],
            game,
            now,
        )
    return True


async def leaderboard(db: asyncpg.Connection, game: str, offset: int, limit: int) -> list[BoardRow]:
    rows = await db.fetch(
        "SELECT r.profile_id, p.name, r.rating, r.games FROM ratings r"
        " JOIN profiles p ON p.id = r.profile_id"
        f" WHERE r.game = $1 AND r.games >= {BOARD_MIN_GAMES} AND NOT p.hidden"
        " ORDER BY r.rating DESC, r.profile_id DESC LIMIT $2 OFFSET $3",
        game,
        limit,
        offset,
    )
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
        " ORDER BY finished_at DESC, game_id, seat",
        profile_id,
    )
    ratings = await db.fetch(
        "SELECT game, mu, sigma, rating, games FROM ratings WHERE profile_id = $1 ORDER BY game",
        profile_id,
    )
    return ProfileRecord(
        profile_id,
        found[0],
        found[1],
        found[2],
        [ResultRow(*r) for r in results],
        [RatingRow(*r) for r in ratings],
    )
