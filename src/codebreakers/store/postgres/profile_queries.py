"""The `Profiles` port's queries on PostgreSQL: profiles, the secrets browsers are known by,
passkeys, and the rooms and games of a profile. As in `queries.py`, `store.py` runs a write in
a transaction and a read on its own; the transports list is JSONB through the msgspec codec."""

from __future__ import annotations

import asyncpg

from codebreakers.store.base import PasskeyRow, ProfileGame, ProfileRoom, ProfileRow
from codebreakers.store.postgres.queries import ROOM_COLUMNS, room

_PROFILE_COLUMNS = "id, name, language, created_at, hidden"
_PASSKEY_COLUMNS = (
    "credential_id, profile_id, public_key, sign_count, transports, created_at, last_used_at"
)


def _profile(r: asyncpg.Record) -> ProfileRow:
    return ProfileRow(r[0], r[1], r[2], r[3], r[4])


def _passkey(r: asyncpg.Record) -> PasskeyRow:
    return PasskeyRow(r[0], r[1], bytes(r[2]), r[3], list(r[4]), r[5], r[6])


async def create_profile(db: asyncpg.Connection, row: ProfileRow, secret_hash: str) -> None:
    await db.execute(
        f"INSERT INTO profiles ({_PROFILE_COLUMNS}, secret_hash) VALUES ($1, $2, $3, $4, $5, $6)",
        row.id,
        row.name,
        row.language,
        row.created_at,
        row.hidden,
        secret_hash,
    )


async def load_profile(db: asyncpg.Connection, profile_id: str) -> ProfileRow | None:
    found = await db.fetchrow(f"SELECT {_PROFILE_COLUMNS} FROM profiles WHERE id = $1", profile_id)
    return None if found is None else _profile(found)


async def profile_by_secret(db: asyncpg.Connection, secret_hash: str) -> ProfileRow | None:
    found = await db.fetchrow(
        f"SELECT {_PROFILE_COLUMNS} FROM profiles WHERE secret_hash = $1"
        f" UNION ALL SELECT {_PROFILE_COLUMNS} FROM profiles"
        " WHERE id = (SELECT profile_id FROM profile_devices WHERE secret_hash = $1)",
        secret_hash,
    )
    return None if found is None else _profile(found)


async def update_profile(
    db: asyncpg.Connection, profile_id: str, name: str, language: str, hidden: bool
) -> bool:
    status = await db.execute(
        "UPDATE profiles SET name = $1, language = $2, hidden = $3 WHERE id = $4",
        name,
        language,
        hidden,
        profile_id,
    )
    # The ratings' copy of `hidden` (the board's index), in the same transaction: the profile's
    # row is locked now, so a first rating being written waits or is waited for
    # (ratings/postgres.py).
    await db.execute(
        "UPDATE ratings SET hidden = $1 WHERE profile_id = $2 AND hidden <> $1", hidden, profile_id
    )
    return bool(status == "UPDATE 1")


async def add_device(db: asyncpg.Connection, profile_id: str, secret_hash: str, now: float) -> None:
    await db.execute(
        "INSERT INTO profile_devices (secret_hash, profile_id, created_at) VALUES ($1, $2, $3)",
        secret_hash,
        profile_id,
        now,
    )


async def forget_secret(db: asyncpg.Connection, secret_hash: str) -> None:
    await db.execute("UPDATE profiles SET secret_hash = NULL WHERE secret_hash = $1", secret_hash)
    await db.execute("DELETE FROM profile_devices WHERE secret_hash = $1", secret_hash)


async def add_passkey(db: asyncpg.Connection, row: PasskeyRow) -> bool:
    status = await db.execute(
        f"INSERT INTO passkeys ({_PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
        " ON CONFLICT (credential_id) DO NOTHING",
        row.credential_id,
        row.profile_id,
        row.public_key,
        row.sign_count,
        row.transports,
        row.created_at,
        row.last_used_at,
    )
    return bool(status == "INSERT 0 1")


async def find_passkey(db: asyncpg.Connection, credential_id: str) -> PasskeyRow | None:
    found = await db.fetchrow(
        f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1", credential_id
    )
    return None if found is None else _passkey(found)


async def passkeys_of(db: asyncpg.Connection, profile_id: str) -> list[PasskeyRow]:
    rows = await db.fetch(
        f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE profile_id = $1"
        " ORDER BY created_at, credential_id",
        profile_id,
    )
    return [_passkey(r) for r in rows]


async def use_passkey(
    db: asyncpg.Connection, credential_id: str, sign_count: int, now: float
) -> bool:
    status = await db.execute(
        "UPDATE passkeys SET sign_count = $1, last_used_at = $2 WHERE credential_id = $3",
        sign_count,
        now,
        credential_id,
    )
    return bool(status == "UPDATE 1")


async def join_room(
    db: asyncpg.Connection, room_code: str, player_id: str, profile_id: str, now: float
) -> None:
    await db.execute(
        "INSERT INTO room_players (room_code, player_id, profile_id, joined_at)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        room_code,
        player_id,
        profile_id,
        now,
    )


async def rooms_of(db: asyncpg.Connection, profile_id: str, limit: int) -> list[ProfileRoom]:
    columns = ", ".join(f"r.{c}" for c in ROOM_COLUMNS.split(", "))
    rows = await db.fetch(
        f"SELECT {columns}, m.player_id, m.joined_at FROM room_players m"
        " JOIN rooms r ON r.code = m.room_code WHERE m.profile_id = $1"
        " ORDER BY m.joined_at DESC, m.room_code LIMIT $2",
        profile_id,
        limit,
    )
    return [ProfileRoom(room(r), r[8], r[9]) for r in rows]


async def finished_games_of(
    db: asyncpg.Connection, profile_id: str, limit: int
) -> list[ProfileGame]:
    rows = await db.fetch(
        "SELECT g.id, g.room_code, g.game, g.created_at, g.outcome, p.player_id, p.side"
        " FROM game_players p JOIN games g ON g.id = p.game_id"
        " WHERE p.profile_id = $1 AND g.over ORDER BY g.created_at DESC, g.id LIMIT $2",
        profile_id,
        limit,
    )
    return [ProfileGame(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
