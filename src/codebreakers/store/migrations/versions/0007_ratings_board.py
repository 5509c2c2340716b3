"""The leaderboard read from one index: each rating row carries its profile's `hidden` flag.

A page of the board used to walk the partial index (game, rating, profile_id) WHERE games >= 5
and join every row above the page with its profile to leave the hidden ones out, so page 20
cost a thousand profile lookups (docs/performance.md, "Ratings"). With `hidden` beside the
rating the index leaves hidden players out itself and holds `games` as well: a page is an
index-only scan to its offset, then 50 profile lookups for the names. The flag is copied from
`profiles` here, and kept equal by the store (a profile's change and a first rating both
write it in the same transaction as the profile's row is read or written).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

BOARD_MIN_GAMES = 5  # frozen here, as in store/ratings/schema.py when written


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(
        sa.text(
            "UPDATE ratings SET hidden = :yes WHERE profile_id IN"
            " (SELECT id FROM profiles WHERE hidden)"
        ).bindparams(yes=True)
    )
    op.drop_index("ix_ratings_board", table_name="ratings")
    where = sa.text(f"games >= {BOARD_MIN_GAMES} AND NOT hidden")
    op.create_index(
        "ix_ratings_board",
        "ratings",
        ["game", "rating", "profile_id", "games"],
        sqlite_where=where,
        postgresql_where=where,
    )


def downgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    where = sa.text(f"games >= {BOARD_MIN_GAMES}")
    op.create_index(
        "ix_ratings_board",
        "ratings",
        ["game", "rating", "profile_id"],
        sqlite_where=where,
        postgresql_where=where,
    )
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("hidden")
