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
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
    false,
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
    Column("profile_id", String, nullable=True),  # the sender's profile (migration 0005)
    PrimaryKeyConstraint("room_code", "seq", name="pk_chat"),
    ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_chat_room_code_rooms"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_game_id_games"),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"], name="fk_chat_profile_id_profiles"),
    Index("ix_chat_game_id", "game_id", "seq"),
    Index("ux_chat_client_id", "room_code", "seat", "client_id", unique=True),
)

# Identity (migration 0005): a profile per browser, made on its first visit; `secret_hash` is
# the hash of the cookie secret of the browser that made it (NULL once that browser signed
# out). Browsers signed in later with a passkey hold secrets of their own, in `profile_devices`.
profiles = Table(
    "profiles",
    metadata,
    Column("id", String, nullable=False),
    Column("name", String, nullable=False),
    Column("language", String, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("hidden", Boolean, nullable=False, server_default=false()),
    Column("secret_hash", String, nullable=True),
    PrimaryKeyConstraint("id", name="pk_profiles"),
    UniqueConstraint("secret_hash", name="uq_profiles_secret_hash"),
)

profile_devices = Table(
    "profile_devices",
    metadata,
    Column("secret_hash", String, nullable=False),
    Column("profile_id", String, nullable=False),
    Column("created_at", Float, nullable=False),
    PrimaryKeyConstraint("secret_hash", name="pk_profile_devices"),
    ForeignKeyConstraint(
        ["profile_id"], ["profiles.id"], name="fk_profile_devices_profile_id_profiles"
    ),
    Index("ix_profile_devices_profile_id", "profile_id"),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String, nullable=False),  # base64url, as WebAuthn sends it
    Column("profile_id", String, nullable=False),
    Column("public_key", LargeBinary, nullable=False),  # COSE, as the authenticator gave it
    Column("sign_count", Integer, nullable=False),
    Column("transports", json_type(), nullable=False),  # list of strings
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=True),
    PrimaryKeyConstraint("credential_id", name="pk_passkeys"),
    ForeignKeyConstraint(["profile_id"], ["profiles.id"], name="fk_passkeys_profile_id_profiles"),
    Index("ix_passkeys_profile_id", "profile_id"),
)

# WebAuthn challenges of ceremonies under way (migration 0008), so that whichever node gets the
# answer can check it: one per browser (its secret's hash) and ceremony, deleted when taken,
# swept once expired.
passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("secret_hash", String, nullable=False),
    Column("ceremony", String, nullable=False),  # "register" or "sign_in"
    Column("challenge", LargeBinary, nullable=False),
    Column("expires_at", Float, nullable=False),
    PrimaryKeyConstraint("secret_hash", "ceremony", name="pk_passkey_challenges"),
    Index("ix_passkey_challenges_expires_at", "expires_at"),
)

# Who played a game, written with the game (`GameLog.create_game`): one row per seated player,
# bots included; `profile_id` NULL for a player without one (every game stored before 0005).
game_players = Table(
    "game_players",
    metadata,
    Column("game_id", String, nullable=False),
    Column("player_id", String, nullable=False),  # the room's id for the player, "p3"
    Column("profile_id", String, nullable=True),
    Column("seat", String, nullable=False),  # the game engine's seat
    Column("side", String, nullable=False),  # the team (Decrypto) or side (Mastermind)
    Column("human", Boolean, nullable=False),
    Column("name", String, nullable=False),  # as shown in the game
    PrimaryKeyConstraint("game_id", "player_id", name="pk_game_players"),
    ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_players_game_id_games"),
    ForeignKeyConstraint(
        ["profile_id"], ["profiles.id"], name="fk_game_players_profile_id_profiles"
    ),
    Index("ix_game_players_profile_id", "profile_id", "game_id"),
)

# The rooms a profile joined, for "your games" on the home page (a room's players live in its
# JSON document, which can't be searched by profile).
room_players = Table(
    "room_players",
    metadata,
    Column("room_code", String, nullable=False),
    Column("player_id", String, nullable=False),
    Column("profile_id", String, nullable=False),
    Column("joined_at", Float, nullable=False),
    PrimaryKeyConstraint("room_code", "player_id", name="pk_room_players"),
    ForeignKeyConstraint(["room_code"], ["rooms.code"], name="fk_room_players_room_code_rooms"),
    ForeignKeyConstraint(
        ["profile_id"], ["profiles.id"], name="fk_room_players_profile_id_profiles"
    ),
    Index("ix_room_players_profile_id", "profile_id", "joined_at"),
)
