"""A push service for the tests: a small HTTP server on loopback that takes the server's
pushes as a real one does (RFC 8030), and browsers' subscription keys to read them.

Each `Browser` is a subscription as ``PushManager.subscribe`` makes one: an endpoint on
this service, a P-256 key pair and a 16-byte auth secret. A push received is kept as it
came (`Received`); `Browser.read` decrypts its body (RFC 8291, ``aes128gcm``) with the
browser's private key, and `vapid_claims` checks its VAPID token (RFC 8292) against the
server's application server key. ``answers`` makes the service answer a path with
another status (404 or 410: the subscription is gone).
"""

from __future__ import annotations

import base64
import json
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

WAIT_S = 10.0
VAPID_MAX_S = 24 * 60 * 60


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    """Lower-case names."""
    body: bytes


@dataclass
class Browser:
    """One browser's subscription on the service."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    @property
    def path(self) -> str:
        return "/" + self.endpoint.split("/", 3)[3]

    def subscription(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives the page."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def read(self, push: Received) -> dict[str, Any]:
        """The push's text, decrypted with this browser's keys, as JSON."""
        assert push.headers["content-encoding"] == "aes128gcm"
        text = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(text)
        return found


def vapid_claims(push: Received, server_key: str, audience: str) -> dict[str, Any]:
    """The push's VAPID token (``Authorization: vapid t=JWT,k=KEY``) checked: signed
    (ES256) by the server's key ``server_key``, for ``audience``, not expired and valid
    for at most a day. Its claims."""
    scheme, _, params = push.headers["authorization"].partition(" ")
    assert scheme == "vapid", push.headers["authorization"]
    parts = dict(p.strip().split("=", 1) for p in params.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(server_key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # or raises
    found: dict[str, Any] = json.loads(unb64url(claims))
    assert found["aud"] == audience
    assert time.time() < found["exp"] <= time.time() + VAPID_MAX_S
    assert found["sub"].startswith(("mailto:", "https://"))
    return found


class PushService:
    """The service (see the module's notes): `running` starts and stops it."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.received: queue.Queue[Received] = queue.Queue()
        self.answers: dict[str, int] = {}
        self.port = 0

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def browser(self) -> Browser:
        return Browser(f"{self.origin}/push/{secrets.token_urlsafe(12)}")

    def next(self, timeout: float = WAIT_S) -> Received:
        """The next push received (fails after ``timeout`` seconds)."""
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no push came within {timeout:g} s") from None

    def nothing_more(self) -> None:
        """No push is waiting (call it after the sends under way are done)."""
        assert self.received.empty(), f"an unexpected push: {self.received.get_nowait()}"

    @contextmanager
    def running(self) -> Iterator[PushService]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.put(Received(self.path, headers, body))
                status = service.answers.get(self.path, 201)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        server = ThreadingHTTPServer((self.host, 0), Handler)
        self.port = server.server_address[1]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=10)
