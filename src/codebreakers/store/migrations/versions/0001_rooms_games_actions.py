"""Rooms, games and the action log.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("data", JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("waiting", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_rooms"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String, nullable=False),
        sa.Column("room_code", sa.String, nullable=False),
        sa.Column("game", sa.String, nullable=False),
        sa.Column("setup", JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("outcome", JSON, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_games_room_code_rooms"),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("client_action_id", sa.String, nullable=True),
        sa.Column("action", JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", name="pk_actions"),
        sa.UniqueConstraint("game_id", "seat", "client_action_id", name="uq_actions_client_action"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id_games"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("games")
    op.drop_table("rooms")
