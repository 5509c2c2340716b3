"""Chat lines, and the indexes behind the lobby, live-game and per-game lookups.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("room_code", sa.String, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String, nullable=True),
        sa.Column("channel", sa.String, nullable=False),
        sa.Column("seat", sa.String, nullable=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("text", sa.String, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("room_code", "seq", name="pk_chat"),
        sa.ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_chat_room_code_rooms"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_game_id_games"),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id", "seq"])
    op.create_index("ix_rooms_lobby", "rooms", ["public", "waiting", "updated_at"])
    op.create_index("ix_games_room_code", "games", ["room_code"])
    op.create_index("ix_games_over", "games", ["over"])


def downgrade() -> None:
    op.drop_index("ix_games_over", table_name="games")
    op.drop_index("ix_games_room_code", table_name="games")
    op.drop_index("ix_rooms_lobby", table_name="rooms")
    op.drop_index("ix_chat_game_id", table_name="chat")
    op.drop_table("chat")
