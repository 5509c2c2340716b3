"""The ratings' SQL for SQLite, run on the SQLite store's connections.

A game's end is one write transaction of the store's group committer (BEGIN IMMEDIATE: SQLite's
one writer), so reading a skill and writing it back can't interleave with another game's end.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec

from codebreakers import skill
from codebreakers.games.results import GameResults
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
from codebreakers.store.ratings.settle import Seated, added_stats, plus, rated_sides, settle
from codebreakers.store.sqlite import queries

_decode = msgspec.json.Decoder(dict[str, int]).decode
_BOARD_PAGE = BOARD_PAGE.format(game="?", limit="?", offset="?")


def finish_game(
    db: sqlite3.Connection,
    game_id: str,
    outcome: JSON,
    results: GameResults | None,
    rated: bool,
    now: float,
) -> bool:
    game = queries.finish_game(db, game_id, outcome)
    if results is None:
        return False
    players = [
        Seated(r[0], r[1], bool(r[2]))
        for r in db.execute(
            "SELECT seat, profile_id, human FROM game_players WHERE game_id = ?", (game_id,)
        )
    ]
    sides = rated_sides(results, players, rated)
    inserted = db.execute(
        "INSERT INTO settled_games (game_id, rated, at) VALUES (?, ?, ?)"
        " ON CONFLICT (game_id) DO NOTHING",
        (game_id, sides is not None, now),
    )
    if inserted.rowcount != 1:
        return False  # settled before: a second finish changes nothing
    ids = [p for side in (sides or {}).values() for p in side]
    skills = {p: skill.Skill() for p in ids}
    if ids:
        marks = ", ".join("?" * len(ids))
        for pid, mu, sigma in db.execute(
            f"SELECT profile_id, mu, sigma FROM ratings WHERE game = ? AND profile_id IN ({marks})",
            (game, *ids),
        ):
            skills[pid] = skill.Skill(mu, sigma)
    settled = settle(game_id, game, results, players, sides, skills, now)
    db.executemany(
        f"INSERT INTO game_results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                r.game_id,
                r.seat,
                r.profile_id,
                r.game,
                r.variant,
                r.side,
                r.result,
                queries.json_text(r.figures),
                r.rated,
                r.rating,
                r.finished_at,
            )
            for r in settled.results
        ],
    )
    _add_stats(db, game, settled.results)
    db.executemany(  # a first rating takes its profile's `hidden` (the board leaves it out)
        "INSERT INTO ratings (profile_id, game, mu, sigma, rating, games, updated_at, hidden)"
        " SELECT id, ?, ?, ?, ?, 1, ?, hidden FROM profiles WHERE id = ?"
        " ON CONFLICT (profile_id, game) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,"
        " games = ratings.games + 1, updated_at = excluded.updated_at",
        [(game, s.mu, s.sigma, s.shown, now, p) for p, s in settled.skills.items()],
    )
    return True


def _add_stats(db: sqlite3.Connection, game: str, rows: list[ResultRow]) -> None:
    """Each profile's totals in the game's variant, with this game's results added."""
    for (profile_id, variant), added in added_stats(rows).items():
        found = db.execute(
            f"SELECT {STATS_COLUMNS} FROM profile_stats"
            " WHERE profile_id = ? AND game = ? AND variant = ?",
            (profile_id, game, variant),
        ).fetchone()
        total = added if found is None else plus(_stats(found), added)
        db.execute(
            f"INSERT INTO profile_stats (profile_id, {STATS_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (profile_id, game, variant) DO UPDATE"
            " SET games = excluded.games, wins = excluded.wins, draws = excluded.draws,"
            " losses = excluded.losses, figures = excluded.figures",
            (profile_id, total.game, total.variant, total.games, total.wins, total.draws,
             total.losses, queries.json_text(total.figures)),
        )  # fmt: skip


def _stats(r: tuple[Any, ...]) -> StatsRow:
    game, variant, games, wins, draws, losses, figures = r
    return StatsRow(game, variant, games, wins, draws, losses, _decode(figures))


def leaderboard(db: sqlite3.Connection, game: str, offset: int, limit: int) -> list[BoardRow]:
    rows = db.execute(_BOARD_PAGE, (game, limit, offset))
    return [BoardRow(*r) for r in rows]


def ratings_of(db: sqlite3.Connection, profile_ids: list[str], game: str) -> dict[str, float]:
    if not profile_ids:
        return {}
    marks = ", ".join("?" * len(profile_ids))
    rows = db.execute(
        f"SELECT profile_id, rating FROM ratings WHERE game = ? AND profile_id IN ({marks})",
        (game, *profile_ids),
    )
    return dict(rows.fetchall())


def _result(r: tuple[Any, ...]) -> ResultRow:
    game_id, seat, profile_id, game, variant, side, result, figures, rated, rating, at = r
    return ResultRow(
        game_id,
        seat,
        profile_id,
        game,
        variant,
        side,
        result,
        _decode(figures),
        bool(rated),
        rating,
        at,
    )


def profile_record(db: sqlite3.Connection, profile_id: str) -> ProfileRecord | None:
    found = db.execute(
        "SELECT name, created_at, hidden FROM profiles WHERE id = ?", (profile_id,)
    ).fetchone()
    if found is None:
        return None
    results = db.execute(
        f"SELECT {RESULT_COLUMNS} FROM game_results WHERE profile_id = ?"
        f" ORDER BY finished_at DESC, game_id, seat LIMIT {LAST_GAMES}",
        (profile_id,),
    ).fetchall()
    ratings = db.execute(
        "SELECT game, mu, sigma, rating, games FROM ratings WHERE profile_id = ? ORDER BY game",
        (profile_id,),
    ).fetchall()
    stats = db.execute(
        f"SELECT {STATS_COLUMNS} FROM profile_stats WHERE profile_id = ? ORDER BY game, variant",
        (profile_id,),
    ).fetchall()
    history = [
        r
        for game, *_ in ratings  # a game rated in has a rating row
        for r in db.execute(
            f"SELECT {RESULT_COLUMNS} FROM game_results WHERE profile_id = ? AND game = ?"
            f" AND rated ORDER BY finished_at DESC, game_id, seat LIMIT {HISTORY}",
            (profile_id, game),
        )
    ]
    return ProfileRecord(
        profile_id,
        found[0],
        found[1],
        bool(found[2]),
        [_result(r) for r in results],
        [RatingRow(*r) for r in ratings],
        [_stats(r) for r in stats],
        [_result(r) for r in history],
    )
