"""The `PasskeyChallenges` port's queries on SQLite, each one unit of work inside a write
transaction its caller (`store.py`) provides, as in `queries.py`. Taking is one `DELETE ...
RETURNING` (SQLite 3.35 or newer), so a challenge is handed out once even to two answers at
once (writes run one at a time on SQLite anyway). A put sweeps the expired rows."""

from __future__ import annotations

import sqlite3


def put_challenge(
    db: sqlite3.Connection,
    secret_hash: str,
    ceremony: str,
    challenge: bytes,
    expires_at: float,
    now: float,
) -> None:
    db.execute(
        "INSERT INTO passkey_challenges (secret_hash, ceremony, challenge, expires_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (secret_hash, ceremony)"
        " DO UPDATE SET challenge = excluded.challenge, expires_at = excluded.expires_at",
        (secret_hash, ceremony, challenge, expires_at),
    )
    db.execute("DELETE FROM passkey_challenges WHERE expires_at < ?", (now,))  # the sweep


def take_challenge(
    db: sqlite3.Connection, secret_hash: str, ceremony: str, now: float
) -> bytes | None:
    found = db.execute(
        "DELETE FROM passkey_challenges WHERE secret_hash = ? AND ceremony = ?"
        " RETURNING challenge, expires_at",
        (secret_hash, ceremony),
    ).fetchone()
    if found is None or found[1] < now:
        return None  # none, or expired (and now gone)
    return bytes(found[0])
