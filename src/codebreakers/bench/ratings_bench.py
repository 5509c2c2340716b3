"""`codebreakers bench-ratings`: fill a database with profiles and finished games, then time
what players wait for: a leaderboard page, a profile, and what the rating update adds to a
game's end (docs/performance.md, "Ratings").

The fill writes the tables the reads use (profiles, games, settled_games, game_results,
ratings, profile_stats) straight through the database's bulk path (COPY on PostgreSQL, with
those tables' foreign keys and secondary indexes made again afterwards, then VACUUM ANALYZE;
executemany batches on SQLite): synthetic games between random profiles, each profile's skill
drawn at random rather than replayed game by game (the reads don't depend on how a rating was
reached). Then, through the server's own code: `leaderboard_p99_ms` over random pages (1 to
MAX_PAGE), `profile_p99_ms` over random profiles (the store's read and the page's summary), and
`rating_update_ms`: the p99 of a rated game's end (`Ratings.finish_game`, four rated players)
minus the p99 of an unrated one's (the same, `rated=False`: the game marked over, its results
written), on games made for it with their players (`--ends` of each, alternately;
`rating_update_p50_ms` is the same difference of the medians). Use a scratch database: the fill
appends to what is there; `--measure-only` times a database filled before (its --profiles must
be the fill's).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from codebreakers import skill
from codebreakers.games.results import GameResults, Result, SeatResult
from codebreakers.server.http.profile_summary import summary
from codebreakers.server.http.standings import MAX_PAGE, PAGE_SIZE
from codebreakers.store import open_store
from codebreakers.store.base import GamePlayer, RoomRow, Store
from codebreakers.store.ratings.open import ratings_of
from codebreakers.store.ratings.schema import BOARD_MIN_GAMES

BATCH = 50_000
SAMPLES = 300
ROOM = "BENCHR"
FIGURES = {"encrypted": 2, "encrypted_decoded": 1, "decoding": 2, "decoded": 2}
_json = msgspec.json.Encoder()


def _games(profiles: int, games: int, rng: random.Random) -> Iterator[tuple[str, list[str]]]:
    """(game id, its four players: white, white, black, black) for every synthetic game."""
    for n in range(games):
        yield f"bg{n}", [f"bp{i}" for i in rng.sample(range(profiles), 4)]


def _hidden(profile: int) -> bool:
    """One profile in a hundred hides itself (the board leaves it out)."""
    return profile % 100 == 0


def _rows(profiles: int, games: int, seed: int) -> dict[str, Iterator[tuple[Any, ...]]]:
    """The rows of each table, made lazily in batches' order."""
    rng = random.Random(seed)
    counts = [0] * profiles
    wins = [0] * profiles

    def profile_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(profiles):
            yield (f"bp{i}", f"Player {i}", "en", 1e9 + i, _hidden(i), None)

    def game_rows() -> Iterator[tuple[Any, ...]]:
        for n in range(games):
            yield (f"bg{n}", ROOM, "decrypto", "{}", 1.5e9 + n, True, '{"winner": "black"}')

    def settled_rows() -> Iterator[tuple[Any, ...]]:
        for n in range(games):
            yield (f"bg{n}", True, 1.5e9 + n)

    def result_rows() -> Iterator[tuple[Any, ...]]:
        figures = _json.encode(FIGURES).decode()
        for game_id, players in _games(profiles, games, random.Random(seed + 1)):
            at = 1.5e9 + int(game_id[2:])
            for k, pid in enumerate(players):
                counts[int(pid[2:])] += 1
                wins[int(pid[2:])] += k >= 2
                side, result = ("white", "loss") if k < 2 else ("black", "win")
                yield (game_id, f"s{k}", pid, "decrypto", "teams", side, result, figures, True,
                       1500.0 + rng.gauss(0, 200), at)  # fmt: skip

    def rating_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(profiles):  # after result_rows: counts are complete
            mu, sigma = rng.gauss(25, 8), max(1.0, rng.gauss(2.5, 0.8))
            yield (f"bp{i}", "decrypto", mu, sigma, skill.shown(mu, sigma), counts[i], 2e9,
                   _hidden(i))  # fmt: skip

    def stats_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(profiles):  # after result_rows, as the ratings
            if counts[i]:
                figures = {name: value * counts[i] for name, value in FIGURES.items()}
                yield (f"bp{i}", "decrypto", "teams", counts[i], wins[i], 0, counts[i] - wins[i],
                       _json.encode(figures).decode())  # fmt: skip

    return {
        "profiles": profile_rows(),
        "games": game_rows(),
        "settled_games": settled_rows(),
        "game_results": result_rows(),
        "ratings": rating_rows(),
        "profile_stats": stats_rows(),
    }


COLUMNS = {
    "profiles": ("id", "name", "language", "created_at", "hidden", "secret_hash"),
    "games": ("id", "room_code", "game", "setup", "created_at", "over", "outcome"),
    "settled_games": ("game_id", "rated", "at"),
    "game_results": (
        "game_id",
        "seat",
        "profile_id",
        "game",
        "variant",
        "side",
        "result",
        "figures",
        "rated",
        "rating",
        "finished_at",
    ),
    "ratings": ("profile_id", "game", "mu", "sigma", "rating", "games", "updated_at", "hidden"),
    "profile_stats": (
        "profile_id",
        "game",
        "variant",
        "games",
        "wins",
        "draws",
        "losses",
        "figures",
    ),
}


def _batches(rows: Iterator[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    batch: list[tuple[Any, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _fill_sqlite(path: str, tables: dict[str, Iterator[tuple[Any, ...]]]) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous=OFF")
    for table, rows in tables.items():
        cols = COLUMNS[table]
        sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        for batch in _batches(rows):
            with db:
                db.executemany(sql, batch)
    db.close()


async def _fill_postgres(dsn: str, tables: dict[str, Iterator[tuple[Any, ...]]]) -> None:
    import asyncpg

    db = await asyncpg.connect(dsn)
    try:
        # Foreign keys and secondary indexes are made again after the fill, in one pass each,
        # instead of checked and updated row by row (primary keys stay: they guard the fill).
        names = list(tables)
        keys = await db.fetch(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1)",
            names,
        )
        indexes = await db.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY($1)"
            " AND indexname NOT IN (SELECT conname FROM pg_constraint)",
            names,
        )
        for table, name, _ in keys:
            await db.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _ in indexes:
            await db.execute(f'DROP INDEX "{name}"')
        for table, rows in tables.items():
            for batch in _batches(rows):  # JSONB columns go as their text
                await db.copy_records_to_table(table, records=batch, columns=COLUMNS[table])
        for _, definition in indexes:
            await db.execute(definition)
        for table, name, definition in keys:
            await db.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
        await db.execute("VACUUM ANALYZE")  # the visibility map: the board's index-only scans
    finally:
        await db.close()


def _p99(samples: list[float]) -> float:
    return round(statistics.quantiles(samples, n=100)[98] * 1000, 3)


async def _timed(work: Awaitable[object]) -> float:
    """Seconds until `work` (a coroutine not started yet) is done."""
    started = time.perf_counter()
    await work
    return time.perf_counter() - started


async def _measure(
    store: Store, profiles: int, ends_each: int, rng: random.Random
) -> dict[str, float]:
    ratings = ratings_of(store)
    await ratings.leaderboard("decrypto", 0, 50)  # warm the pool and the caches
    board = [
        await _timed(
            ratings.leaderboard("decrypto", rng.randrange(MAX_PAGE) * PAGE_SIZE, PAGE_SIZE)
        )
        for _ in range(SAMPLES)
    ]

    async def one_profile() -> None:
        record = await ratings.profile_record(f"bp{rng.randrange(profiles)}")
        assert record is not None
        summary(record)

    profile = [await _timed(one_profile()) for _ in range(SAMPLES)]
    done = GameResults(
        "teams",
        {f"s{k}": SeatResult("white" if k < 2 else "black",
                             Result.LOSS if k < 2 else Result.WIN, FIGURES) for k in range(4)},
    )  # fmt: skip
    ends: dict[bool, list[float]] = {True: [], False: []}
    for n in range(2 * ends_each):
        rated = n % 2 == 0  # alternating, so both see the same database
        game_id = f"bu{n}-{uuid.uuid4().hex}"  # new in every run: --measure-only again
        players = [
            GamePlayer(f"p{k}", f"s{k}", "white" if k < 2 else "black", True, f"P{k}", f"bp{i}")
            for k, i in enumerate(rng.sample(range(profiles), 4))
        ]
        await store.create_game(game_id, ROOM, "decrypto", {}, time.time(), players)
        ends[rated].append(await _timed(ratings.finish_game(game_id, {}, done, rated, time.time())))
    return {
        "leaderboard_p99_ms": _p99(board),
        "profile_p99_ms": _p99(profile),
        "rating_update_ms": round(_p99(ends[True]) - _p99(ends[False]), 3),
        "rating_update_p50_ms": round(
            (statistics.median(ends[True]) - statistics.median(ends[False])) * 1000, 3
        ),
        "game_end_rated_p99_ms": _p99(ends[True]),
        "game_end_unrated_p99_ms": _p99(ends[False]),
    }


async def _run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    store = open_store(url)
    await store.open()  # migrates an empty database
    try:
        if await store.load_room(ROOM) is None:
            await store.create_room(RoomRow(ROOM, "decrypto", {}, 1, False, False, 1.0, 1.0))
    finally:
        await store.close()
    tables = {} if args.measure_only else _rows(args.profiles, args.games, args.seed)
    started = time.perf_counter()
    if tables and url.startswith("sqlite"):
        await asyncio.to_thread(_fill_sqlite, url.removeprefix("sqlite:///"), tables)
    elif tables:  # nothing to fill with --measure-only
        await _fill_postgres(url.replace("postgresql+asyncpg", "postgresql"), tables)
    fill_s = time.perf_counter() - started
    store = open_store(url)
    await store.open()
    try:
        figures = await _measure(store, args.profiles, args.ends, random.Random(args.seed + 2))
    finally:
        await store.close()
    return {
        "profiles": args.profiles,
        "games": args.games,
        "board_min_games": BOARD_MIN_GAMES,
        "fill_s": round(fill_s, 1),
        **figures,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        url = args.db or f"sqlite:///{Path(scratch) / 'ratings.db'}"
        result = asyncio.run(_run(args, url))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}  {value}")
    return 0
