"""The ratings' tables (migration 0006), on the store's shared `schema.metadata`.

- `settled_games`: one row per finished game whose results were recorded, written in the same
  transaction as the results, the ratings and the game's end. Its primary key is what makes
  the update happen once: a second finish of the same game (a restart, another node) inserts
  nothing and so changes nothing (docs/ratings.md).
- `game_results`: each seat of a finished game that a profile played, with its result, the
  game's figures for it (games/results.py) and, for a rated game, the rating it left with: the
  profile's games, W/D/L, figures, rating history and last games all read from it.
- `profile_stats` (migration 0009): a profile's totals per game and variant (games, wins,
  draws, losses, the figures summed), added to with each game's results, so a profile page
  reads them instead of every game the profile played.
- `ratings`: a profile's skill in one game (mu, sigma), the conservative rating shown
  (`skill.shown`), the rated games counted, and the profile's `hidden` (a copy the store keeps
  equal to the profile's), for the leaderboard.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    false,
    text,
)

from codebreakers.store.schema import json_type, metadata

# A player enters the leaderboard after this many rated games (the partial index's bound).
BOARD_MIN_GAMES = 5
# The board's rows, as its partial index and the query both say it (SQLite uses a partial
# index only for a query whose WHERE holds the index's terms).
BOARD_WHERE = f"games >= {BOARD_MIN_GAMES} AND NOT hidden"
# A page of the board: the index alone up to the page, then each of its rows' names. The
# placeholders are the driver's own (`format` them: game, limit, offset).
BOARD_PAGE = (
    "SELECT b.profile_id, p.name, b.rating, b.games FROM"
    " (SELECT profile_id, rating, games FROM ratings"
    f" WHERE game = {{game}} AND {BOARD_WHERE}"
    " ORDER BY rating DESC, profile_id DESC LIMIT {limit} OFFSET {offset}) b"
    " JOIN profiles p ON p.id = b.profile_id ORDER BY b.rating DESC, b.profile_id DESC"
)

settled_games = Table(
    "settled_games",
    metadata,
    Column("game_id", String, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", name="pk_settled_games"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_settled_games_game_id_games"),
)

game_results = Table(
    "game_results",
    metadata,
    Column("game_id", String, nullable=False),
    Column("seat", String, nullable=False),
    Column("profile_id", String, nullable=False),
    Column("game", String, nullable=False),
    Column("variant", String, nullable=False),
    Column("side", String, nullable=False),
    Column("result", String, nullable=False),  # games/results.py Result: win, draw, loss
    Column("figures", json_type(), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating", Float, nullable=True),  # the shown rating after a rated game
    Column("finished_at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_game_results"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_results_game_id_games"),
    ForeignKeyConstraint(
        ["profile_id"], ["profiles.id"], name="fk_game_results_profile_id_profiles"
    ),
    Index("ix_game_results_profile", "profile_id", "finished_at"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("profile_id", String, nullable=False),
    Column("game", String, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    # The profile's `hidden`, copied (migration 0007): the board's index leaves them out.
    Column("hidden", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("profile_id", "game", name="pk_ratings"),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"], name="fk_ratings_profile_id_profiles"),
    # The leaderboard: one game's shown players with enough games, best first, read from the
    # index alone up to the page (`games` is in it for that).
    Index(
        "ix_ratings_board",
        "game",
        "rating",
        "profile_id",
        "games",
        sqlite_where=text(BOARD_WHERE),
        postgresql_where=text(BOARD_WHERE),
    ),
)

profile_stats = Table(
    "profile_stats",
    metadata,
    Column("profile_id", String, nullable=False),
    Column("game", String, nullable=False),
    Column("variant", String, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
    Column("figures", json_type(), nullable=False),  # each figure summed over the games
    PrimaryKeyConstraint("profile_id", "game", "variant", name="pk_profile_stats"),
    ForeignKeyConstraint(
        ["profile_id"], ["profiles.id"], name="fk_profile_stats_profile_id_profiles"
    ),
)
