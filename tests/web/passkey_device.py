"""A software passkey for the in-process tests: an authenticator (ES256, no attestation)
that answers WebAuthn's options as a browser's page would send them back
(``PublicKeyCredential.toJSON()``), for any origin the test names (the browser's page
origin), so that a test can play a page of another site."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

UP_UV_AT = 0x01 | 0x04 | 0x40
UP_UV = 0x01 | 0x04


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One authenticator holding passkeys (credential id -> key, rp id, user handle)."""

    keys: dict[bytes, tuple[ec.EllipticCurvePrivateKey, str, str]] = field(default_factory=dict)
    count: int = 0

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """Make a passkey for ``navigator.credentials.create`` options."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        numbers = key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big")}  # fmt: skip
        credential_id = secrets.token_bytes(16)
        self.keys[credential_id] = (key, rp_id, options["user"]["id"])
        data = (
            hashlib.sha256(rp_id.encode()).digest() + bytes([UP_UV_AT]) + struct.pack(">I", 0)
            + bytes(16) + struct.pack(">H", len(credential_id)) + credential_id + encode_cbor(cose)
        )  # fmt: skip
        client = self._client("webauthn.create", options["challenge"], origin)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": data})
        return {
            "id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client), "attestationObject": b64(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }  # fmt: skip

    def get(self, options: dict[str, Any], origin: str, rp_id: str | None = None) -> dict[str, Any]:
        """Sign in with this device's passkey for the options' site (``rp_id``: sign as
        another site's passkey would)."""
        wanted = rp_id or options["rpId"]
        credential_id, (key, _, user) = next(
            (cid, held) for cid, held in self.keys.items() if held[1] == wanted
        )
        self.count += 1
        data = (
            hashlib.sha256(wanted.encode()).digest() + bytes([UP_UV])
            + struct.pack(">I", self.count)
        )  # fmt: skip
        client = self._client("webauthn.get", options["challenge"], origin)
        signature = key.sign(data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(credential_id), "rawId": b64(credential_id), "type": "public-key",
            "response": {"clientDataJSON": b64(client), "authenticatorData": b64(data),
                         "signature": b64(signature), "userHandle": user},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }  # fmt: skip

    @staticmethod
    def _client(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()
