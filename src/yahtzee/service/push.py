"""Web Push: the server's VAPID key and the accounts' push subscriptions.

The VAPID key (RFC 8292) identifies this server to the push services: the browser
subscribes with its public half (the application server key, `VapidKey.public_key`), and
every push carries a token signed with its private half. It is `VAPID_KEY_ENV` when set
(base64url of the 32-byte private scalar, as ``web-push generate-vapid-keys`` prints it),
else made once and kept in the records, where every node finds the same one.

A subscription (what the browser's ``PushManager.subscribe`` gives) is checked before it
is kept: its endpoint must be a push service's https URL on a public address
(`push_address`), its ``p256dh`` a point of the P-256 curve, its ``auth`` 16 bytes; else
`InvalidInput` ``bad_subscription`` and nothing is kept.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ..core import InvalidInput
from ..core.language import _, current
from ..store import Store
from ..store import push as records
from ..store.push import PushSubscription
from .push_address import (
    PushTarget,
    Resolver,
    bad_subscription,
    check_endpoint,
    resolve_host,
)

VAPID_KEY_ENV: Final = "YAHTZEE_VAPID_PRIVATE_KEY"
VAPID_SUBJECT_ENV: Final = "YAHTZEE_VAPID_SUBJECT"
DEFAULT_SUBJECT: Final = "mailto:push@yahtzee.invalid"
"""The contact the VAPID token names (``sub``) unless `VAPID_SUBJECT_ENV` says another:
push services may write to it about this server's pushes."""
POINT_BYTES: Final = 65
"""An uncompressed P-256 point: 0x04, then x and y (32 bytes each)."""
AUTH_BYTES: Final = 16
MAX_KEY_TEXT: Final = 200
"""characters of a subscription's key (base64url of 65 bytes is 87)."""


def b64url(data: bytes) -> str:
    """base64url without padding (as the Push API writes keys)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def from_b64url(text: str) -> bytes:
    """The bytes of base64url text, padded or not; ValueError for anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


@dataclass(frozen=True, slots=True)
class VapidKey:
    """The server's VAPID key pair (P-256)."""

    private_key: str
    """base64url of the 32-byte private scalar."""

    @classmethod
    def generate(cls) -> VapidKey:
        key = ec.generate_private_key(ec.SECP256R1())
        return cls(b64url(key.private_numbers().private_value.to_bytes(32, "big")))

    @classmethod
    def parse(cls, text: str) -> VapidKey:
        """A key as `VAPID_KEY_ENV` gives it; `InvalidInput` for anything else."""
        try:
            raw = from_b64url(text.strip())
            if len(raw) != 32:  # noqa: PLR2004
                raise ValueError("not 32 bytes")
            ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
        except ValueError:
            raise InvalidInput(
                f"${VAPID_KEY_ENV} is not a VAPID private key (base64url of 32 bytes, as "
                "web-push generate-vapid-keys prints it)."
            ) from None
        return cls(b64url(raw))

    def signing_key(self) -> ec.EllipticCurvePrivateKey:
        return ec.derive_private_key(
            int.from_bytes(from_b64url(self.private_key), "big"), ec.SECP256R1()
        )

    @property
    def public_point(self) -> bytes:
        """The uncompressed P-256 public point (65 bytes): the application server key."""
        public = self.signing_key().public_key()
        return public.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)

    @property
    def public_key(self) -> str:
        """`public_point` in base64url, as ``GET /api/push/key`` answers it."""
        return b64url(self.public_point)


def vapid_key(store: Store) -> VapidKey:
    """`VAPID_KEY_ENV`'s key, else the records' (made now if no node made one yet)."""
    given = os.environ.get(VAPID_KEY_ENV)
    if given:
        return VapidKey.parse(given)
    made = records.setting(
        store, records.VAPID_KEY_SETTING, lambda: VapidKey.generate().private_key
    )
    return VapidKey.parse(made)


def vapid_subject() -> str:
    return os.environ.get(VAPID_SUBJECT_ENV) or DEFAULT_SUBJECT


def check_keys(p256dh: str, auth: str) -> None:
    """`InvalidInput` ``bad_subscription`` unless ``p256dh`` is a P-256 point and ``auth``
    16 bytes (both base64url)."""
    try:
        if len(p256dh) > MAX_KEY_TEXT:
            raise ValueError("too long")
        point = from_b64url(p256dh)
        if len(point) != POINT_BYTES:
            raise ValueError("not 65 bytes")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise bad_subscription(_("its p256dh key is not a P-256 public key.")) from None
    try:
        if len(auth) > MAX_KEY_TEXT or len(from_b64url(auth)) != AUTH_BYTES:
            raise ValueError("not 16 bytes")
    except ValueError:
        raise bad_subscription(_("its auth secret is not 16 bytes of base64url.")) from None


class PushSubscriptions:
    """The accounts' push subscriptions (see the module's notes); ``allow_local``: the
    tests' own push service on loopback is allowed (`push_address`)."""

    def __init__(
        self, store: Store, *, allow_local: bool = False, resolve: Resolver = resolve_host
    ) -> None:
        self.store = store
        self.allow_local = allow_local
        self.resolve = resolve

    def target(self, endpoint: str) -> PushTarget:
        """The endpoint's target, checked now (blocking: it resolves the host)."""
        return check_endpoint(endpoint, allow_local=self.allow_local, resolve=self.resolve)

    async def add(self, account_id: str, endpoint: str, p256dh: str, auth: str) -> None:
        """Keep the browser's subscription for the account, checked (the module's notes)."""
        check_keys(p256dh, auth)
        await asyncio.to_thread(self.target, endpoint)
        subscription = PushSubscription(
            account_id, endpoint, p256dh, auth, datetime.now(UTC), current()
        )  # its notifications speak the language of the page that subscribed
        await asyncio.to_thread(records.add_subscription, self.store, subscription)

    async def remove(self, account_id: str, endpoint: str) -> bool:
        """Forget the account's subscription to ``endpoint``; whether it had one."""
        return await asyncio.to_thread(
            records.remove_subscription, self.store, account_id, endpoint
        )

    async def of(self, account_id: str) -> list[PushSubscription]:
        """The account's subscriptions, newest first."""
        return await asyncio.to_thread(records.subscriptions_of, self.store, account_id)


__all__ = [
    "DEFAULT_SUBJECT",
    "VAPID_KEY_ENV",
    "VAPID_SUBJECT_ENV",
    "PushSubscriptions",
    "VapidKey",
    "b64url",
    "check_keys",
    "from_b64url",
    "vapid_key",
    "vapid_subject",
]
