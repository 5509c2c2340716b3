"""Ratings: finished games settled once, each profile's results per game, skills per game.

The tables of store/ratings/schema.py (docs/ratings.md). Games finished before this step stay
unsettled and unrated: their players had no profile (migration 0005 made them anonymous).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(JSONB(), "postgresql")
BOARD_MIN_GAMES = 5  # frozen here, as in store/ratings/schema.py when written


def upgrade() -> None:
    op.create_table(
        "settled_games",
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", name="pk_settled_games"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_settled_games_game_id_games"),
    )
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("variant", sa.String, nullable=False),
        sa.Column("side", sa.String, nullable=False),
        sa.Column("result", sa.String, nullable=False),
        sa.Column("figures", _JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_results"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_results_game_id_games"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_game_results_profile_id_profiles"
        ),
    )
    op.create_index("ix_game_results_profile", "game_results", ["profile_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "game", name="pk_ratings"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_ratings_profile_id_profiles"
        ),
    )
    where = sa.text(f"games >= {BOARD_MIN_GAMES}")
    op.create_index(
        "ix_ratings_board",
        "ratings",
        ["game", "rating", "profile_id"],
        sqlite_where=where,
        postgresql_where=where,
    )


def downgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_game_results_profile", table_name="game_results")
    op.drop_table("game_results")
    op.drop_table("settled_games")
