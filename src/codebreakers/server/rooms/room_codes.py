"""Room codes: short, easy to read aloud, hard to guess among live rooms.

Six characters from an alphabet without 0/O and 1/I give 32**6 ≈ 2**30 codes, so even with
thousands of live rooms a guessed code hits one with odds below one in 100,000. Codes are drawn
with `secrets` (not a seeded generator) and the store refuses a code already taken.
"""

from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(code: str) -> str | None:
    """A code as typed (any case, stray spaces or dashes) -> canonical form, or None if invalid."""
    cleaned = code.strip().upper().replace("-", "").replace(" ", "")
    if len(cleaned) != LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned
