"""Who a browser is: the profile its identity cookie names, made on its first visit.

A browser is known by a random secret (`secrets.token_urlsafe(32)`, 256 bits) that the server
sets once in an HttpOnly, SameSite=Lax cookie (Secure on https), for 400 days (the longest a
browser keeps one). The store keeps only its SHA-256 hash (`profiles.secret_hash`, or
`profile_devices` for a browser signed in with a passkey), so the database, the logs, the
views and the records never hold a usable secret, and no URL ever carries it: page scripts
can't read it either (HttpOnly), they ask `GET /api/me`. A seat token proves a seat in one room,
never a profile: the profile is read from the cookie alone.

Losing the cookie (cleared, another browser) loses that identity unless a passkey secures it:
signing in with the passkey gives the new browser a secret of its own for the same profile.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from starlette.requests import HTTPConnection
from starlette.responses import Response

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.store.base import ProfileRow, Profiles

COOKIE = "cb_id"
MAX_AGE_S = 400 * 24 * 3600
SECRET_CHARS = 43  # token_urlsafe(32)
LANGUAGES = ("en", "fr", "ru", "ko")  # the client's catalogs (web/i18n)
# A new profile's name, in the visitor's language, until the player picks one.
DEFAULT_NAMES = {"en": "Player {n}", "fr": "Joueur {n}", "ru": "Игрок {n}", "ko": "플레이어 {n}"}


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def secret_of(cookies: Mapping[str, str]) -> str | None:
    """The identity secret a request carries, if it has the shape of one (anything else is no
    secret: a cookie can hold any bytes)."""
    value = cookies.get(COOKIE)
    if value is None or len(value) != SECRET_CHARS:
        return None
    if not all(c.isascii() and (c.isalnum() or c in "-_") for c in value):
        return None
    return value


async def profile_of(store: Profiles, connection: HTTPConnection) -> ProfileRow | None:
    """The profile the request's (or WebSocket handshake's) cookie names, if any."""
    secret = secret_of(connection.cookies)
    return None if secret is None else await store.profile_by_secret(token_hash(secret))


async def known_profile(store: Profiles, connection: HTTPConnection) -> tuple[ProfileRow, str]:
    """The cookie's profile and its secret's hash, for routes that need one: Refused
    `no_profile` without it."""
    secret = secret_of(connection.cookies)
    hashed = None if secret is None else token_hash(secret)
    profile = None if hashed is None else await store.profile_by_secret(hashed)
    if hashed is None or profile is None:
        raise Refused(ErrorCode.NO_PROFILE, "this browser has no profile yet: GET /api/me")
    return profile, hashed


def language_of(accept_language: str | None) -> str:
    """The first of the client's languages (`Accept-Language`, in its order) that the site
    speaks; English otherwise."""
    for part in (accept_language or "").split(","):
        tag = part.split(";")[0].strip().lower()
        primary = tag.split("-")[0]
        if primary in LANGUAGES:
            return primary
    return "en"


def default_name(language: str) -> str:
    return DEFAULT_NAMES[language].format(n=1000 + secrets.randbelow(9000))


async def new_profile(store: Profiles, language: str, now: float) -> tuple[ProfileRow, str]:
    """A new profile and the secret its browser will hold."""
    secret = new_secret()
    row = ProfileRow(secrets.token_urlsafe(9), default_name(language), language, now)
    await store.create_profile(row, token_hash(secret))
    return row, secret


def secure(connection: HTTPConnection) -> bool:
    """Whether the page came over https (the proxy layer gives the client's own scheme)."""
    return connection.url.scheme in ("https", "wss")


def set_cookie(response: Response, secret: str, connection: HTTPConnection) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=MAX_AGE_S,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure(connection),
    )


def clear_cookie(response: Response, connection: HTTPConnection) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=secure(connection)
    )
