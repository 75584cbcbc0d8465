"""Who may talk to the server, and the headers every answer carries.

`AllowedHosts` is the list of origins (scheme, host and port) the server answers
for: by default the address it listens on (``http``) and, when that is a loopback or
wildcard address, its aliases ``localhost``, ``127.0.0.1`` and ``[::1]``; ``yahtzee serve
--allowed-host`` adds more (``host``, ``host:port`` or ``https://host``). Two checks use it:

- the ``Host`` header must name one of them (a DNS-rebinding page at
  ``evil.example:8765`` that resolves to this machine is refused);
- a browser's ``Origin`` must be one of them, scheme included (a request without
  ``Origin`` comes from no browser page and passes).

`origin_allowed` makes both checks; the WebSocket route and the HTTP middleware
(`HostCheck`) call it. `SecurityHeaders` adds the Content-Security-Policy
and its companions to every HTTP answer, static files included.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Final
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.language import _
from ..service.cluster import NODE_HEADER

DEFAULT_PORTS: Final = {"http": 80, "https": 443}
LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "::1")
TEST_CLIENT_HOST: Final = "testserver"
"""The host Starlette's test client names in its requests."""
HTTP_FORBIDDEN: Final = 403

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def printable_policy(page: str) -> str:
    """The Content-Security-Policy of a printable page the server renders (a scorepad):
    nothing loads, nothing runs; its one inline style is allowed by its hash."""
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.DOTALL)
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in styles
    )
    allowed = hashes or "'none'"
    return (
        f"default-src 'none'; style-src {allowed}; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


SECURITY_HEADERS: Final = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class AllowedOrigin:
    """One origin: ``port`` None stands for any port (only the default for tests uses it)."""

    scheme: str
    host: str
    port: int | None

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}" + ("" if self.port is None else f":{self.port}")

    def matches_origin(self, scheme: str, host: str, port: int) -> bool:
        return (
            scheme == self.scheme and host == self.host and (self.port is None or self.port == port)
        )

    def matches_host(self, host: str, port: int | None) -> bool:
        """A ``Host`` header names no scheme: its port, when it names none, is the
        default port of this origin's scheme."""
        if host != self.host:
            return False
        if self.port is None:
            return True
        return self.port == (DEFAULT_PORTS[self.scheme] if port is None else port)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")


def _split(text: str) -> tuple[str, str, int | None]:
    """``(scheme, host, port)`` of ``http://host:port``, ``host:port`` or ``[::1]:port``
    (scheme "" when none is written; host lower-case, IPv6 without brackets); ValueError
    for anything else."""
    text = text.strip()
    if "://" not in text:
        parts = urlsplit(f"//{text}")
        scheme = ""
    else:
        parts = urlsplit(text)
        scheme = parts.scheme.lower()
        if scheme not in DEFAULT_PORTS:
            raise ValueError(f"unknown scheme {parts.scheme!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError("an origin is a scheme, a host and a port, nothing more")
    host = (parts.hostname or "").lower()
    if not host:
        raise ValueError("no host")
    port = parts.port  # ValueError for a port out of range or not a number
    return scheme, host, port


@dataclass(frozen=True, slots=True)
class AllowedHosts:
    """The origins the server answers for (see the module's description)."""

    origins: tuple[AllowedOrigin, ...]

    @classmethod
    def for_server(cls, host: str, port: int, extra: Iterable[str] = ()) -> AllowedHosts:
        """What ``yahtzee serve --host HOST --port PORT --allowed-host EXTRA...`` allows:
        ``http://HOST:PORT`` (and the loopback aliases for a loopback or wildcard bind),
        plus each of ``extra``: ``host`` or ``host:port`` (``http``; the server's port
        when none is given) or ``https://host[:port]`` (the scheme's port when none is
        given). ValueError names an entry that is not one of these."""
        bind = host.strip().strip("[]").lower()
        names: list[str] = [] if _is_wildcard(bind) else [bind]
        if _is_wildcard(bind) or _is_loopback(bind):
            names += [n for n in LOOPBACK_NAMES if n not in names]
        origins = [AllowedOrigin("http", name, port) for name in names]
        for entry in extra:
            try:
                scheme, name, given = _split(entry)
            except ValueError as error:
                raise ValueError(f"{entry[:60]!r} is not HOST[:PORT] or https://HOST") from error
            if scheme:
                origin = AllowedOrigin(
                    scheme, name, DEFAULT_PORTS[scheme] if given is None else given
                )
            else:
                origin = AllowedOrigin("http", name, port if given is None else given)
            if origin not in origins:
                origins.append(origin)
        return cls(tuple(origins))

    @classmethod
    def local(cls) -> AllowedHosts:
        """``create_app``'s default (tests, embedding): the loopback names on any port,
        ``http`` or ``https``, and Starlette's test client. ``yahtzee serve`` always
        passes the exact list of `for_server`."""
        return cls(
            tuple(
                AllowedOrigin(scheme, name, None)
                for name in (*LOOPBACK_NAMES, TEST_CLIENT_HOST)
                for scheme in DEFAULT_PORTS
            )
        )

    def allows_origin(self, origin: str) -> bool:
        """Whether a browser's ``Origin`` header names one of these origins."""
        try:
            scheme, host, port = _split(origin)
        except ValueError:
            return False  # "null" (a sandboxed frame, a file) and anything malformed
        if not scheme:
            return False
        effective = DEFAULT_PORTS[scheme] if port is None else port
        return any(o.matches_origin(scheme, host, effective) for o in self.origins)

    def allows_host(self, host_header: str) -> bool:
        """Whether a ``Host`` header names one of these hosts (and its port)."""
        if "://" in host_header:
            return False
        try:
            _, host, port = _split(host_header)
        except ValueError:
            return False
        return any(o.matches_host(host, port) for o in self.origins)

    def __str__(self) -> str:
        return ", ".join(str(o) for o in self.origins)


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is not None:
        return value
    for key, found in headers.items():  # a plain dict may spell it "Origin"
        if key.lower() == name:
            return found
    return None


def origin_allowed(headers: Mapping[str, str], allowed: AllowedHosts) -> bool:
    """Whether a request with these headers may be served: its ``Host`` (when it names
    one) and its ``Origin`` (when a browser sent one) must both be in ``allowed``.
    ``headers`` is Starlette's ``request.headers`` / ``websocket.headers`` or any mapping
    (keys in any case)."""
    host = _header(headers, "host")
    if host is not None and not allowed.allows_host(host):
        return False
    origin = _header(headers, "origin")
    return origin is None or allowed.allows_origin(origin)


def refusal_body(code: str, message: str) -> bytes:
    """A refusal's JSON, ``{"code", "message"}``, for answers made below the app."""
    return json.dumps({"code": code, "message": message}).encode()


def refusal_answer(status: int, code: str, message: str) -> bytes:
    """A whole HTTP answer with a refusal (`refusal_body`, `SECURITY_HEADERS`), for the
    server's own protocol below the app; the connection ends after it."""
    body = refusal_body(code, message)
    lines = [
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{name}: {value}" for name, value in SECURITY_HEADERS.items()),
    ]
    return "\r\n".join(lines).encode() + b"\r\n\r\n" + body


async def send_refusal(
    send: Send, status: int, code: str, message: str, *, close: bool = False
) -> None:
    """Answer a request with a refusal from an ASGI middleware (the app's handlers are
    not reached), with `SECURITY_HEADERS`; ``close``: the connection ends after it."""
    body = refusal_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *((k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()),
                *([(b"connection", b"close")] if close else []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


RELAYED: Final = "yahtzee.relayed"
"""Set in a request's scope when a node of the site relayed it, its relay key checked
(`relay.RelayTrust`): the relaying node made the checks."""


def relayed(scope: Scope) -> bool:
    """Whether one of the site's nodes relayed this request (its checks were made)."""
    return bool(scope.get(RELAYED))


class HostCheck:
    """Refuses (403 ``bad_origin``) every HTTP request whose ``Host`` or ``Origin`` is not
    allowed. WebSockets pass through: their route accepts them first and closes them with
    4403, so that the browser sees why."""

    def __init__(self, app: ASGIApp, allowed: AllowedHosts) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get(RELAYED):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        if origin_allowed(headers, self.allowed):
            await self.app(scope, receive, send)
            return
        await send_refusal(
            send,
            HTTP_FORBIDDEN,
            "bad_origin",
            _("This server does not answer for that address (see --allowed-host)."),
        )


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every HTTP answer (pages, API, static files,
    errors) that does not set them itself, and ``X-Yahtzee-Node`` when ``node`` names
    this server node."""

    def __init__(self, app: ASGIApp, node: str | None = None) -> None:
        self.app = app
        self.raw = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
        if node is not None:  # which server node answered (behind a load balancer)
            self.raw.append((NODE_HEADER.encode(), node.encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.raw if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, sending)


__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "AllowedHosts",
    "AllowedOrigin",
    "HostCheck",
    "SecurityHeaders",
    "origin_allowed",
    "printable_policy",
    "refusal_answer",
    "refusal_body",
    "send_refusal",
]
