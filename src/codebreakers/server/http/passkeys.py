"""Passkeys (WebAuthn, through the `webauthn` package): securing a profile, and signing in with
it on another browser.

- `POST /api/passkeys/register/options`, then `POST /api/passkeys/register` with what the
  browser's `navigator.credentials.create` made: the passkey is stored for the visitor's
  profile. Passkeys are discoverable (resident), so signing in needs no name typed.
- `POST /api/passkeys/sign-in/options`, then `POST /api/passkeys/sign-in` with what
  `navigator.credentials.get` made: the browser is given a new secret of its own bound to the
  passkey's profile (`Profiles.add_device`); the anonymous profile it held before keeps its
  games but is no longer this browser's (secured by a passkey of its own, it can be signed
  into again).

Challenges stay on the server: 32 random bytes per ceremony, bound to the browser's identity
secret (by its hash) and to the ceremony, used once, gone after CHALLENGE_TTL_S. They are held
in the store (`PasskeyChallenges`, table `passkey_challenges`), so the answer may reach any node
of the site, not only the one that issued the challenge (a load balancer needs no affinity).
The relying party is the site: its id the host of the public URL (or of the request), its
origin checked against the page's.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from codebreakers.server.cluster.node import Node
from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http import identity
from codebreakers.server.http.me import me_json
from codebreakers.server.http.routes import decoded_body, error_response
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.store.base import PasskeyRow, ProfileRow

RP_NAME = "Codebreakers"
CHALLENGE_TTL_S = 300.0
TIMEOUT_MS = 120_000
REGISTER, SIGN_IN = "register", "sign_in"
NO_STORE = {"Cache-Control": "no-store"}
T = TypeVar("T")


async def new_challenge(node: Node, secret_hash: str, ceremony: str) -> bytes:
    """A fresh challenge, held in the store; one asked before for the same ceremony is
    forgotten."""
    challenge = secrets.token_bytes(32)
    now = node.ports.clock()
    await node.ports.store.put_challenge(
        secret_hash, ceremony, challenge, now + CHALLENGE_TTL_S, now
    )
    return challenge


async def take_challenge(node: Node, secret_hash: str, ceremony: str) -> bytes:
    """The challenge, once, whichever node issued it: Refused when there is none, or it
    expired."""
    taken = await node.ports.store.take_challenge(secret_hash, ceremony, node.ports.clock())
    if taken is None:
        raise Refused(ErrorCode.PASSKEY_CHALLENGE, "no passkey request under way: start again")
    return taken


def relying_party(request: Request, public_url: str | None) -> tuple[str, str]:
    """(rp id, expected origin): the public URL's host and origin, else the request's own."""
    if public_url:
        parts = urlsplit(public_url)
        return parts.hostname or "", f"{parts.scheme}://{parts.netloc}"
    host = request.headers.get("host", "")
    scheme = "https" if identity.secure(request) else "http"
    return urlsplit(f"//{host}").hostname or "", f"{scheme}://{host}"


def _transports(credential: dict[str, Any]) -> list[str]:
    """The transports the browser reported for a new credential (known values only)."""
    response = credential.get("response")
    given = response.get("transports") if isinstance(response, dict) else None
    known = {t.value for t in AuthenticatorTransport}
    return (
        [t for t in given if isinstance(t, str) and t in known] if isinstance(given, list) else []
    )


def _descriptor(row: PasskeyRow) -> PublicKeyCredentialDescriptor:
    transports = [AuthenticatorTransport(t) for t in row.transports]
    return PublicKeyCredentialDescriptor(
        id=base64url_to_bytes(row.credential_id), transports=transports
    )


async def _credential(request: Request) -> dict[str, Any]:
    """The browser's credential JSON (a bounded JSON object)."""
    body = await decoded_body(request, dict[str, Any])
    if not isinstance(body.get("id"), str):
        raise Refused(ErrorCode.BAD_MESSAGE, "send the credential the browser made")
    return body


@dataclass(frozen=True, slots=True)
class _Answer:
    profile: ProfileRow
    secret_hash: str
    credential: dict[str, Any]
    challenge: bytes
    rp_id: str
    origin: str


def _verified(verify: Callable[..., T], **checks: Any) -> T:
    """`verify(**checks)` (the webauthn package's), its failure refused with a stable code."""
    try:
        return verify(**checks)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise Refused(ErrorCode.PASSKEY_REFUSED, f"the passkey was refused: {exc}") from None


def routes(node: Node) -> list[Route]:
    store = node.ports.store

    async def register_options(request: Request) -> Response:
        try:
            profile, hashed = await identity.known_profile(store, request)
        except Refused as refused:
            return error_response(refused)
        rp_id, _origin = relying_party(request, node.config.public_url)
        existing = await store.passkeys_of(profile.id)
        challenge = await new_challenge(node, hashed, REGISTER)
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_id=profile.id.encode(),
            user_name=profile.name,
            user_display_name=profile.name,
            challenge=challenge,
            timeout=TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[_descriptor(k) for k in existing],
        )
        return Response(options_to_json(options), media_type="application/json")

    async def answer(request: Request, ceremony: str) -> _Answer:
        """The browser's answer to a ceremony the site asked of it (on any node): its profile,
        secret hash, credential and the challenge (taken: once), with the relying party to
        check against."""
        profile, hashed = await identity.known_profile(store, request)
        credential = await _credential(request)
        challenge = await take_challenge(node, hashed, ceremony)
        rp_id, origin = relying_party(request, node.config.public_url)
        return _Answer(profile, hashed, credential, challenge, rp_id, origin)

    async def register(request: Request) -> Response:
        try:
            got = await answer(request, REGISTER)
            verified = _verified(
                verify_registration_response,
                credential=got.credential,
                expected_challenge=got.challenge,
                expected_rp_id=got.rp_id,
                expected_origin=got.origin,
            )
            row = PasskeyRow(
                bytes_to_base64url(verified.credential_id),
                got.profile.id,
                verified.credential_public_key,
                verified.sign_count,
                _transports(got.credential),
                node.ports.clock(),
            )
            if not await store.add_passkey(row):
                raise Refused(ErrorCode.PASSKEY_REFUSED, "this passkey is registered already")
        except Refused as refused:
            return error_response(refused)
        return JSONResponse(await me_json(node, got.profile), headers=NO_STORE)

    async def sign_in_options(request: Request) -> Response:
        try:
            _profile, hashed = await identity.known_profile(store, request)
        except Refused as refused:
            return error_response(refused)
        rp_id, _origin = relying_party(request, node.config.public_url)
        options = generate_authentication_options(
            rp_id=rp_id,
            challenge=await new_challenge(node, hashed, SIGN_IN),
            timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return Response(options_to_json(options), media_type="application/json")

    async def sign_in(request: Request) -> Response:
        try:
            got = await answer(request, SIGN_IN)
            stored = await store.find_passkey(got.credential["id"])
            if stored is None:
                raise Refused(ErrorCode.UNKNOWN_PASSKEY, "this passkey belongs to no profile here")
            verified = _verified(
                verify_authentication_response,
                credential=got.credential,
                expected_challenge=got.challenge,
                expected_rp_id=got.rp_id,
                expected_origin=got.origin,
                credential_public_key=stored.public_key,
                credential_current_sign_count=stored.sign_count,
            )
            now = node.ports.clock()
            await store.use_passkey(stored.credential_id, verified.new_sign_count, now)
            profile = await store.load_profile(stored.profile_id)
            assert profile is not None, "a passkey's profile is kept (foreign key)"
            secret = identity.new_secret()
            await store.add_device(profile.id, token_hash(secret), now)
            await store.forget_secret(got.secret_hash)  # this browser's former identity
        except Refused as refused:
            return error_response(refused)
        response = JSONResponse(await me_json(node, profile), headers=NO_STORE)
        identity.set_cookie(response, secret, request)
        return response

    return [
        Route("/api/passkeys/register/options", register_options, methods=["POST"]),
        Route("/api/passkeys/register", register, methods=["POST"]),
        Route("/api/passkeys/sign-in/options", sign_in_options, methods=["POST"]),
        Route("/api/passkeys/sign-in", sign_in, methods=["POST"]),
    ]
