"""Identity: profiles, their passkeys and signed-in devices, who played each game, the rooms a
profile joined, and the profile of each chat line.

Existing rows come along unchanged: chat lines get `profile_id` NULL (anonymous), and every
stored game gets its `game_players` rows, filled in SQL from the game's setup (`teams`: side ->
seats) and the room's document (the player's name and kind, while the room still lists the
player; else the seat stands for the name and the player counts as human), all anonymous.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_JSON = sa.JSON().with_variant(JSONB(), "postgresql")

_PLAYERS_OF_STORED_GAMES = {
    "sqlite": (
        "INSERT INTO game_players (game_id, player_id, profile_id, seat, side, human, name)"
        " SELECT g.id, s.value, NULL, s.value, t.key,"
        " coalesce(json_extract(r.data, '$.players.' || s.value || '.kind'), 'human') != 'bot',"
        " coalesce(json_extract(r.data, '$.players.' || s.value || '.name'), s.value)"
        " FROM games g JOIN rooms r ON r.code = g.room_code,"
        " json_each(g.setup, '$.teams') t, json_each(t.value) s"
        " WHERE json_type(g.setup, '$.teams') = 'object' AND t.type = 'array'"
        " AND s.type = 'text'"
        " ON CONFLICT DO NOTHING"
    ),
    "postgresql": (
        "INSERT INTO game_players (game_id, player_id, profile_id, seat, side, human, name)"
        " SELECT g.id, s.seat, NULL, s.seat, t.key,"
        " coalesce(r.data->'players'->s.seat->>'kind', 'human') <> 'bot',"
        " coalesce(r.data->'players'->s.seat->>'name', s.seat)"
        " FROM games g JOIN rooms r ON r.code = g.room_code"
        " CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(g.setup->'teams') = 'object'"
        " THEN g.setup->'teams' ELSE '{}'::jsonb END) t"
        " CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(t.value) = 'array'"
        " THEN t.value ELSE '[]'::jsonb END) e"
        " CROSS JOIN LATERAL (SELECT e #>> '{}' AS seat) s"
        " WHERE jsonb_typeof(e) = 'string'"
        " ON CONFLICT DO NOTHING"
    ),
}


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("language", sa.String, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("secret_hash", sa.String, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_profiles"),
        sa.UniqueConstraint("secret_hash", name="uq_profiles_secret_hash"),
    )
    op.create_table(
        "profile_devices",
        sa.Column("secret_hash", sa.String, nullable=False),
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("secret_hash", name="pk_profile_devices"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_profile_devices_profile_id_profiles"
        ),
    )
    op.create_index("ix_profile_devices_profile_id", "profile_devices", ["profile_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String, nullable=False),
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("transports", _JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used_at", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("credential_id", name="pk_passkeys"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_passkeys_profile_id_profiles"
        ),
    )
    op.create_index("ix_passkeys_profile_id", "passkeys", ["profile_id"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String, nullable=False),
        sa.Column("player_id", sa.String, nullable=False),
        sa.Column("profile_id", sa.String, nullable=True),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("side", sa.String, nullable=False),
        sa.Column("human", sa.Boolean, nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id", name="pk_game_players"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_players_game_id_games"),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_game_players_profile_id_profiles"
        ),
    )
    op.create_index("ix_game_players_profile_id", "game_players", ["profile_id", "game_id"])
    op.create_table(
        "room_players",
        sa.Column("room_code", sa.String, nullable=False),
        sa.Column("player_id", sa.String, nullable=False),
        sa.Column("profile_id", sa.String, nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("room_code", "player_id", name="pk_room_players"),
        sa.ForeignKeyConstraint(
            ["room_code"], ["rooms.code"], name="fk_room_players_room_code_rooms"
        ),
        sa.ForeignKeyConstraint(
            ["profile_id"], ["profiles.id"], name="fk_room_players_profile_id_profiles"
        ),
    )
    op.create_index("ix_room_players_profile_id", "room_players", ["profile_id", "joined_at"])
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("profile_id", sa.String, nullable=True))
        batch.create_foreign_key("fk_chat_profile_id_profiles", "profiles", ["profile_id"], ["id"])
    op.execute(_PLAYERS_OF_STORED_GAMES[op.get_bind().dialect.name])


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_constraint("fk_chat_profile_id_profiles", type_="foreignkey")
        batch.drop_column("profile_id")
    op.drop_index("ix_room_players_profile_id", table_name="room_players")
    op.drop_table("room_players")
    op.drop_index("ix_game_players_profile_id", table_name="game_players")
    op.drop_table("game_players")
    op.drop_index("ix_passkeys_profile_id", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_profile_devices_profile_id", table_name="profile_devices")
    op.drop_table("profile_devices")
    op.drop_table("profiles")
