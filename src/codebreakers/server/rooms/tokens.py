"""Seat tokens: the only proof that a socket may act for a player.

A token is 192 random bits (`secrets.token_urlsafe(24)`), handed once to the joining socket and
kept by the browser. The room stores only its SHA-256 hash, so neither the database nor anything
derived from the room data (descriptions, logs, records) can leak a usable token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Constant-time comparison, so timing doesn't reveal how much of a hash matched."""
    return hmac.compare_digest(a, b)
