"""The tables the store queries, as SQLAlchemy Core objects shared by SQLite and PostgreSQL.

This is the *current* shape; the migrations under `migrations/versions/` are frozen steps that
build it (a test checks that migrating an empty database to head yields exactly this metadata).
Times are seconds since the epoch as floats: the game rules receive time as an input, so the
store never reads a clock itself.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB


def json_type(*, nullable: bool = False) -> JSON:
    """JSON on SQLite, JSONB on PostgreSQL; a nullable column stores Python None as SQL NULL."""
    return JSON(none_as_null=nullable).with_variant(JSONB(none_as_null=nullable), "postgresql")


metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String, nullable=False),
    Column("game", String, nullable=False),
    Column("data", json_type(), nullable=False),
    Column("version", Integer, nullable=False),
    Column("public", Boolean, nullable=False),
    Column("waiting", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    PrimaryKeyConstraint("code", name="pk_rooms"),
    Index("ix_rooms_lobby", "public", "waiting", "updated_at"),
)

games = Table(
    "games",
    metadata,
    Column("id", String, nullable=False),
    Column("room_code", String, nullable=False),
    Column("game", String, nullable=False),
    Column("setup", json_type(), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("outcome", json_type(nullable=True), nullable=True),
    PrimaryKeyConstraint("id", name="pk_games"),
    ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_games_room_code_rooms"),
    Index("ix_games_room_code", "room_code"),
    Index("ix_games_over", "over"),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String, nullable=False),
    Column("version", Integer, nullable=False),
    Column("seat", String, nullable=False),
    Column("client_action_id", String, nullable=True),
    Column("action", json_type(), nullable=False),
    Column("at", Float, nullable=False),
    PrimaryKeyConstraint("game_id", "version", name="pk_actions"),
    UniqueConstraint("game_id", "seat", "client_action_id", name="uq_actions_client_action"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id_games"),
)

chat = Table(
    "chat",
    metadata,
    Column("room_code", String, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("game_id", String, nullable=True),
    Column("channel", String, nullable=False),
    Column("seat", String, nullable=True),
    Column("name", String, nullable=False),
    Column("text", String, nullable=False),
    Column("at", Float, nullable=False),
    Column("client_id", String, nullable=True),
    PrimaryKeyConstraint("room_code", "seq", name="pk_chat"),
    ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_chat_room_code_rooms"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_game_id_games"),
    Index("ix_chat_game_id", "game_id", "seq"),
    Index("ux_chat_client_id", "room_code", "seat", "client_id", unique=True),
)
