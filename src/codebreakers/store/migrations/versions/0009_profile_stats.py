"""A profile's totals kept as its games end: a profile page reads them, not every game.

`profile_stats` holds, per profile, game and variant, the games played, the wins, draws and
losses and the game's figures summed (games/results.py), added to in the same transaction as a
game's results (store/ratings). A profile page then reads its totals, its last games and its
rating history (bounded), however many games the profile has played. Existing results are
summed into it here.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(JSONB(), "postgresql")

_COUNTS = (
    "SELECT profile_id, game, variant, count(*) AS games,"
    " sum(CASE WHEN result = 'win' THEN 1 ELSE 0 END) AS wins,"
    " sum(CASE WHEN result = 'draw' THEN 1 ELSE 0 END) AS draws,"
    " sum(CASE WHEN result = 'loss' THEN 1 ELSE 0 END) AS losses"
    " FROM game_results GROUP BY profile_id, game, variant"
)
_FILL = {
    "sqlite": (
        "INSERT INTO profile_stats"
        " (profile_id, game, variant, games, wins, draws, losses, figures)"
        " SELECT c.profile_id, c.game, c.variant, c.games, c.wins, c.draws, c.losses,"
        " coalesce(f.figures, '{}')"
        f" FROM ({_COUNTS}) c LEFT JOIN"
        " (SELECT profile_id, game, variant, json_group_object(key, total) AS figures FROM"
        " (SELECT r.profile_id, r.game, r.variant, e.key, sum(e.value) AS total"
        " FROM game_results r, json_each(r.figures) e"
        " GROUP BY r.profile_id, r.game, r.variant, e.key)"
        " GROUP BY profile_id, game, variant) f"
        " ON f.profile_id = c.profile_id AND f.game = c.game AND f.variant = c.variant"
    ),
    "postgresql": (
        "INSERT INTO profile_stats"
        " (profile_id, game, variant, games, wins, draws, losses, figures)"
        " SELECT c.profile_id, c.game, c.variant, c.games, c.wins, c.draws, c.losses,"
        " coalesce(f.figures, '{}'::jsonb)"
        f" FROM ({_COUNTS}) c LEFT JOIN"
        " (SELECT profile_id, game, variant, jsonb_object_agg(key, total) AS figures FROM"
        " (SELECT r.profile_id, r.game, r.variant, e.key, sum(e.value::bigint) AS total"
        " FROM game_results r CROSS JOIN LATERAL jsonb_each_text(r.figures) e"
        " GROUP BY r.profile_id, r.game, r.variant, e.key) x"
        " GROUP BY profile_id, game, variant) f"
        " ON f.profile_id = c.profile_id AND f.game = c.game AND f.variant = c.variant"
    ),
}


def upgrade() -> None:
    op.create_table(
        "profile_stats",
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("variant", sa.String, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("figures", _JSON, nullable=False),
        sa.PrimaryKeyConstraint("profile_id", "game", "variant", name="pk_profile_stats"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_profile_stats_profile_id_profiles"
        ),
    )
    op.execute(_FILL[op.get_bind().dialect.name])


def downgrade() -> None:
    op.drop_table("profile_stats")
