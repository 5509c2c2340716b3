"""The `Profiles` port's queries on SQLite: profiles, the secrets browsers are known by,
passkeys, and the rooms and games of a profile. Each function is one unit of work inside a
transaction its caller (`store.py`) provides, as in `queries.py`."""

from __future__ import annotations

import sqlite3
from typing import Any

from codebreakers.store.base import PasskeyRow, ProfileGame, ProfileRoom, ProfileRow
from codebreakers.store.sqlite.queries import ROOM_COLUMNS, json_text, loaded, room

_PROFILE_COLUMNS = "id, name, language, created_at, hidden"
_PASSKEY_COLUMNS = (
    "credential_id, profile_id, public_key, sign_count, transports, created_at, last_used_at"
)


def _profile(r: tuple[Any, ...]) -> ProfileRow:
    return ProfileRow(r[0], r[1], r[2], r[3], bool(r[4]))


def _passkey(r: tuple[Any, ...]) -> PasskeyRow:
    return PasskeyRow(r[0], r[1], bytes(r[2]), r[3], loaded(r[4]), r[5], r[6])


def create_profile(db: sqlite3.Connection, row: ProfileRow, secret_hash: str) -> None:
    db.execute(
        f"INSERT INTO profiles ({_PROFILE_COLUMNS}, secret_hash) VALUES (?, ?, ?, ?, ?, ?)",
        (row.id, row.name, row.language, row.created_at, row.hidden, secret_hash),
    )


def load_profile(db: sqlite3.Connection, profile_id: str) -> ProfileRow | None:
    found = db.execute(
        f"SELECT {_PROFILE_COLUMNS} FROM profiles WHERE id = ?", (profile_id,)
    ).fetchone()
    return None if found is None else _profile(found)


def profile_by_secret(db: sqlite3.Connection, secret_hash: str) -> ProfileRow | None:
    found = db.execute(
        f"SELECT {_PROFILE_COLUMNS} FROM profiles WHERE secret_hash = ?"
        f" UNION ALL SELECT {_PROFILE_COLUMNS} FROM profiles"
        " WHERE id = (SELECT profile_id FROM profile_devices WHERE secret_hash = ?)",
        (secret_hash, secret_hash),
    ).fetchone()
    return None if found is None else _profile(found)


def update_profile(
    db: sqlite3.Connection, profile_id: str, name: str, language: str, hidden: bool
) -> bool:
    cursor = db.execute(
        "UPDATE profiles SET name = ?, language = ?, hidden = ? WHERE id = ?",
        (name, language, hidden, profile_id),
    )
    # The ratings' copy of `hidden` (the board's index), in the same transaction.
    db.execute("UPDATE ratings SET hidden = ? WHERE profile_id = ?", (hidden, profile_id))
    return cursor.rowcount == 1


def add_device(db: sqlite3.Connection, profile_id: str, secret_hash: str, now: float) -> None:
    db.execute(
        "INSERT INTO profile_devices (secret_hash, profile_id, created_at) VALUES (?, ?, ?)",
        (secret_hash, profile_id, now),
    )


def forget_secret(db: sqlite3.Connection, secret_hash: str) -> None:
    db.execute("UPDATE profiles SET secret_hash = NULL WHERE secret_hash = ?", (secret_hash,))
    db.execute("DELETE FROM profile_devices WHERE secret_hash = ?", (secret_hash,))


def add_passkey(db: sqlite3.Connection, row: PasskeyRow) -> bool:
    cursor = db.execute(
        f"INSERT INTO passkeys ({_PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (credential_id) DO NOTHING",
        (
            row.credential_id,
            row.profile_id,
            row.public_key,
            row.sign_count,
            json_text(row.transports),
            row.created_at,
            row.last_used_at,
        ),
    )
    return cursor.rowcount == 1


def find_passkey(db: sqlite3.Connection, credential_id: str) -> PasskeyRow | None:
    found = db.execute(
        f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = ?", (credential_id,)
    ).fetchone()
    return None if found is None else _passkey(found)


def passkeys_of(db: sqlite3.Connection, profile_id: str) -> list[PasskeyRow]:
    rows = db.execute(
        f"SELECT {_PASSKEY_COLUMNS} FROM passkeys WHERE profile_id = ?"
        " ORDER BY created_at, credential_id",
        (profile_id,),
    )
    return [_passkey(r) for r in rows]


def use_passkey(db: sqlite3.Connection, credential_id: str, sign_count: int, now: float) -> bool:
    cursor = db.execute(
        "UPDATE passkeys SET sign_count = ?, last_used_at = ? WHERE credential_id = ?",
        (sign_count, now, credential_id),
    )
    return cursor.rowcount == 1


def join_room(
    db: sqlite3.Connection, room_code: str, player_id: str, profile_id: str, now: float
) -> None:
    db.execute(
        "INSERT INTO room_players (room_code, player_id, profile_id, joined_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (room_code, player_id, profile_id, now),
    )


def rooms_of(db: sqlite3.Connection, profile_id: str, limit: int) -> list[ProfileRoom]:
    columns = ", ".join(f"r.{c}" for c in ROOM_COLUMNS.split(", "))
    rows = db.execute(
        f"SELECT {columns}, m.player_id, m.joined_at FROM room_players m"
        " JOIN rooms r ON r.code = m.room_code WHERE m.profile_id = ?"
        " ORDER BY m.joined_at DESC, m.room_code LIMIT ?",
        (profile_id, limit),
    )
    return [ProfileRoom(room(r[:8]), r[8], r[9]) for r in rows]


def finished_games_of(db: sqlite3.Connection, profile_id: str, limit: int) -> list[ProfileGame]:
    rows = db.execute(
        "SELECT g.id, g.room_code, g.game, g.created_at, g.outcome, p.player_id, p.side"
        " FROM game_players p JOIN games g ON g.id = p.game_id"
        " WHERE p.profile_id = ? AND g.over = 1 ORDER BY g.created_at DESC, g.id LIMIT ?",
        (profile_id, limit),
    )
    return [ProfileGame(r[0], r[1], r[2], r[3], loaded(r[4]), r[5], r[6]) for r in rows]
