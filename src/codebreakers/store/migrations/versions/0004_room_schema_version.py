"""Room documents say which schema they follow: `"schema": 1` in every stored room's JSON.

The server decodes a room's JSON into a typed document (server/rooms/model.py) whose `schema`
field names the shape it was written in, so a later change of shape can tell old rows from new
ones. Schema 1 is the shape rooms always had; this step only writes the number into the rows
stored before it (documents that are not JSON objects are left alone). Written in SQL, one
statement per table, so a large store upgrades without reading its rooms into Python.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

SCHEMA = 1  # frozen here: a later schema comes with a migration of its own

_UPGRADE = {
    "sqlite": (
        f"UPDATE rooms SET data = json_set(data, '$.schema', {SCHEMA}) "
        "WHERE json_type(data) = 'object'"
    ),
    "postgresql": (
        f"UPDATE rooms SET data = data || jsonb_build_object('schema', {SCHEMA}) "
        "WHERE jsonb_typeof(data) = 'object'"
    ),
}
_DOWNGRADE = {
    "sqlite": (
        "UPDATE rooms SET data = json_remove(data, '$.schema') WHERE json_type(data) = 'object'"
    ),
    "postgresql": "UPDATE rooms SET data = data - 'schema' WHERE jsonb_typeof(data) = 'object'",
}


def upgrade() -> None:
    op.execute(_UPGRADE[op.get_bind().dialect.name])


def downgrade() -> None:
    op.execute(_DOWNGRADE[op.get_bind().dialect.name])
