"""Passkey challenges in the store: a ceremony begun on one node can be answered on another.

`passkey_challenges` holds the challenge of each WebAuthn ceremony under way, by the browser's
secret hash and the ceremony, until it is taken (once) or swept after it expired. Nothing to
bring along: challenges held in a node's memory before this step expire within minutes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkey_challenges",
        sa.Column("secret_hash", sa.String, nullable=False),
        sa.Column("ceremony", sa.String, nullable=False),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("secret_hash", "ceremony", name="pk_passkey_challenges"),
    )
    op.create_index("ix_passkey_challenges_expires_at", "passkey_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_passkey_challenges_expires_at", table_name="passkey_challenges")
    op.drop_table("passkey_challenges")
