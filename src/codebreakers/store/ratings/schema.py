"""The ratings' tables (migration 0006), on the store's shared `schema.metadata`.

- `settled_games`: one row per finished game whose results were recorded, written in the same
  transaction as the results, the ratings and the game's end. Its primary key is what makes
  the update happen once: a second finish of the same game (a restart, another node) inserts
  nothing and so changes nothing (docs/ratings.md).
- `game_results`: each seat of a finished game that a profile played, with its result, the
  game's figures for it (games/results.py) and, for a rated game, the rating it left with: the
  profile's games, W/D/L, figures, rating history and last games all read from it.
- `ratings`: a profile's skill in one game (mu, sigma), the conservative rating shown
  (`skill.shown`) and the rated games counted, for the leaderboard.
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
    text,
)

from codebreakers.store.schema import json_type, metadata

# A player enters the leaderboard after this many rated games (the partial index's bound).
BOARD_MIN_GAMES = 5

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
    PrimaryKeyConstraint("profile_id", "game", name="pk_ratings"),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"], name="fk_ratings_profile_id_profiles"),
    # The leaderboard: one game's players with enough games, best first.
    Index(
        "ix_ratings_board",
        "game",
        "rating",
        "profile_id",
        sqlite_where=text(f"games >= {BOARD_MIN_GAMES}"),
        postgresql_where=text(f"games >= {BOARD_MIN_GAMES}"),
    ),
)
