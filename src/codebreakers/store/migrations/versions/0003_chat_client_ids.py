"""Chat lines remember the sender's message id, so a retry after a restart is stored once.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("client_id", sa.String, nullable=True))
    op.create_index("ux_chat_client_id", "chat", ["room_code", "seat", "client_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_chat_client_id", table_name="chat")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("client_id")
