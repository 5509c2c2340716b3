"""A software passkey: what a browser's `navigator.credentials.create`/`get` would send, made
in Python (attestation "none", ES256), so HTTP tests can run whole WebAuthn ceremonies."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from base64 import urlsafe_b64encode
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, verified, credential


def b64url(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftPasskey:
    """One discoverable credential for one relying party, with its signature counter."""

    def __init__(self, rp_id: str, origin: str) -> None:
        self.rp_id, self.origin = rp_id, origin
        self.credential_id = os.urandom(16)
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.user_handle = ""  # base64url, as the options gave it
        self.count = 0

    def _client_data(self, kind: str, options: dict[str, Any]) -> bytes:
        data = {"type": kind, "challenge": options["challenge"], "origin": self.origin}
        return json.dumps({**data, "crossOrigin": False}).encode()

    def _auth_data(self, flags: int, extra: bytes = b"") -> bytes:
        self.count += 1
        rp_hash = hashlib.sha256(self.rp_id.encode()).digest()
        return rp_hash + bytes([flags]) + struct.pack(">I", self.count) + extra

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """The credential for the registration `options` the server sent."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        auth_data = self._auth_data(UP | UV | AT, attested + cose)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        raw = b64url(self.credential_id)
        response = {
            "clientDataJSON": b64url(self._client_data("webauthn.create", options)),
            "attestationObject": b64url(attestation),
            "transports": ["internal"],
        }
        return {"id": raw, "rawId": raw, "type": "public-key", "response": response}

    def get(self, options: dict[str, Any]) -> dict[str, Any]:
        """The assertion for the sign-in `options` the server sent."""
        client_data = self._client_data("webauthn.get", options)
        auth_data = self._auth_data(UP | UV)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        raw = b64url(self.credential_id)
        response = {
            "clientDataJSON": b64url(client_data),
            "authenticatorData": b64url(auth_data),
            "signature": b64url(signature),
            "userHandle": self.user_handle,
        }
        return {"id": raw, "rawId": raw, "type": "public-key", "response": response}
