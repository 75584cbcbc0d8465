"""One push message sent to one subscription (RFC 8030, 8291, 8292), blocking: run it in a
worker thread.

The payload is encrypted for the browser's keys (``aes128gcm``, by pywebpush's
`WebPusher.encode`) and posted with a VAPID token (py_vapid, the signer pywebpush uses)
whose audience is the push service's origin. The post goes to the address the endpoint's
host was resolved to and checked at (`push_address.PushTarget`), not to whatever the name
resolves to by then: the TLS handshake still names and verifies the host (SNI and the
certificate's name). Redirects are not followed (a push service answers, it does not send
anyone elsewhere).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

import urllib3
from py_vapid import Vapid02
from pywebpush import WebPusher

from ..store.push import PushSubscription
from .push_address import PushTarget

TTL_S: Final = 24 * 60 * 60
"""How long the push service keeps a push for a browser that is offline (a day: a turn
waits that long or longer)."""
TOKEN_S: Final = 12 * 60 * 60
"""How long a VAPID token is valid (RFC 8292 allows at most 24 h)."""
TIMEOUT_S: Final = 10.0
TOPIC: Final = "your-turn"
"""The push service keeps only the newest undelivered push of this topic per browser
(RFC 8030 5.4): a later "your turn" replaces an earlier one waiting there too."""


@dataclass(frozen=True, slots=True)
class Push:
    """A message to send: its text (the JSON the service worker reads) and how long the
    push service keeps it."""

    payload: bytes
    ttl: int = TTL_S
    topic: str = TOPIC


def vapid_headers(private_key: str, audience: str, subject: str) -> dict[str, str]:
    """The ``Authorization`` header of a push to ``audience`` (a push service's origin)."""
    claims = {"aud": audience, "sub": subject, "exp": int(time.time()) + TOKEN_S}
    signed: dict[str, str] = Vapid02.from_raw(private_key.encode()).sign(claims)
    return {"Authorization": signed["Authorization"]}


def send(
    target: PushTarget, subscription: PushSubscription, push: Push, *, key: str, subject: str
) -> int:
    """Post the push to the subscription's push service at ``target``; its HTTP status
    (201 is sent; 404 and 410: the subscription is gone). `urllib3.exceptions.HTTPError`
    (or OSError) when the service cannot be reached."""
    keys = {"p256dh": subscription.p256dh, "auth": subscription.auth}
    encrypted = WebPusher({"endpoint": subscription.endpoint, "keys": keys}).encode(
        push.payload, "aes128gcm"
    )
    host = f"[{target.host}]" if ":" in target.host else target.host
    default = 443 if target.scheme == "https" else 80
    headers = {
        **vapid_headers(key, target.origin, subject),
        "Host": host if target.port == default else f"{host}:{target.port}",
        "TTL": str(push.ttl),
        "Topic": push.topic,
        "Urgency": "normal",
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
    }
    timeout = urllib3.Timeout(total=TIMEOUT_S)
    pool: urllib3.HTTPConnectionPool
    if target.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            target.address, target.port, timeout=timeout, retries=False,
            server_hostname=target.host, assert_hostname=target.host,
        )  # fmt: skip
    else:  # the tests' own push service on loopback (`push_address`)
        pool = urllib3.HTTPConnectionPool(
            target.address, target.port, timeout=timeout, retries=False
        )
    with pool:
        answer = pool.urlopen(
            "POST", target.path, body=encrypted["body"], headers=headers, redirect=False,
            assert_same_host=False,
        )  # fmt: skip
        return int(answer.status)


__all__ = ["TOPIC", "TTL_S", "Push", "send", "vapid_headers"]
