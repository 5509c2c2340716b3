"""The `PasskeyChallenges` port's queries on PostgreSQL, each run in a transaction of its own by
`store.py`, as in `queries.py`. Taking is one `DELETE ... RETURNING`: of two answers at once,
the second waits for the first's row lock and then finds the row gone (READ COMMITTED checks
the row again), so a challenge is handed out once. A put sweeps the expired rows, skipping any
another transaction holds."""

from __future__ import annotations

import asyncpg


async def put_challenge(
    db: asyncpg.Connection,
    secret_hash: str,
    ceremony: str,
    challenge: bytes,
    expires_at: float,
    now: float,
) -> None:
    await db.execute(
        "INSERT INTO passkey_challenges (secret_hash, ceremony, challenge, expires_at)"
        " VALUES ($1, $2, $3, $4) ON CONFLICT (secret_hash, ceremony)"
        " DO UPDATE SET challenge = excluded.challenge, expires_at = excluded.expires_at",
        secret_hash,
        ceremony,
        challenge,
        expires_at,
    )
    # The sweep takes no lock another call holds (SKIP LOCKED) and comes after this call's
    # only waiting statement, so calls at once never wait on each other's sweeps (no deadlock).
    await db.execute(
        "DELETE FROM passkey_challenges WHERE (secret_hash, ceremony) IN"
        " (SELECT secret_hash, ceremony FROM passkey_challenges WHERE expires_at < $1"
        " FOR UPDATE SKIP LOCKED)",
        now,
    )


async def take_challenge(
    db: asyncpg.Connection, secret_hash: str, ceremony: str, now: float
) -> bytes | None:
    found = await db.fetchrow(
        "DELETE FROM passkey_challenges WHERE secret_hash = $1 AND ceremony = $2"
        " RETURNING challenge, expires_at",
        secret_hash,
        ceremony,
    )
    if found is None or found[1] < now:
        return None  # none, or expired (and now gone)
    return bytes(found[0])
