"""Where a push subscription may point: a push service on the public internet, never this
server's own network (no server-side request forgery).

A subscription's endpoint is an ``https`` URL; its host is resolved, and every address it
resolves to must be a public one: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7),
link-local (169.254/16, fe80::/10), multicast, shared (100.64/10), reserved and unspecified
addresses are refused (``bad_subscription``), IPv4 written inside IPv6 (``::ffff:10.0.0.1``)
as the IPv4 address it is. A name that resolves to one such address is refused even if it
resolves to public ones too. The send resolves the host again, checks again, and connects
to the address it checked (`PushTarget.address`), so a name that changed its answer since
(DNS rebinding) reaches no other address.

``allow_local`` (the tests' own push service, and nothing else: `ALLOW_LOCAL_ENV`) lets a
subscription point at a loopback address, over plain ``http`` too.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from ..core import InvalidInput
from ..core.language import _

ALLOW_LOCAL_ENV: Final = "YAHTZEE_PUSH_ALLOW_LOCAL"
MAX_ENDPOINT: Final = 1024
"""characters: the push services' endpoints are a few hundred."""

Resolver = Callable[[str, int], Sequence[str]]
"""A host's addresses (for a port): `resolve_host`, or a stand-in in tests."""

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def allow_local_from_env() -> bool:
    """Whether `ALLOW_LOCAL_ENV` is set to 1 (tests only)."""
    return os.environ.get(ALLOW_LOCAL_ENV) == "1"


@dataclass(frozen=True, slots=True)
class PushTarget:
    """A push service's endpoint, checked: its URL's parts and the address to connect to."""

    scheme: str
    host: str
    port: int
    address: str
    """The resolved address checked, the one the send connects to."""
    path: str
    """The path with its query."""

    @property
    def origin(self) -> str:
        """``scheme://host[:port]``: the VAPID token's audience."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")


def resolve_host(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (blocking: call it in a worker thread)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def bad_subscription(reason: str) -> InvalidInput:
    """A subscription refused (`InvalidInput` ``bad_subscription``), for ``reason``."""
    # Translators: {reason} says why, as a clause ("its endpoint is not a URL.").
    message = _("This push subscription cannot be used: {reason}").format(reason=reason)
    return InvalidInput(message, code="bad_subscription")


def address_allowed(address: IpAddress, allow_local: bool) -> bool:
    """Whether a push may be sent to ``address`` (see the module's notes)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if allow_local and address.is_loopback:
        return True
    return address.is_global and not address.is_multicast


def check_endpoint(endpoint: str, *, allow_local: bool, resolve: Resolver) -> PushTarget:
    """The endpoint's target, checked (blocking: it resolves the host); `InvalidInput`
    ``bad_subscription`` for an endpoint that is no push service's URL or that points at
    an address refused (the module's notes)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise bad_subscription(
            _("its endpoint is longer than {most} characters.").format(most=MAX_ENDPOINT)
        )
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise bad_subscription(_("its endpoint is not a URL.")) from None
    host = (parts.hostname or "").lower()
    if not host or parts.username is not None or parts.password is not None:
        raise bad_subscription(_("its endpoint is not a push service's URL."))
    schemes = ("https", "http") if allow_local else ("https",)
    if parts.scheme not in schemes:
        raise bad_subscription(_("its endpoint is not an https URL."))
    port = port if port is not None else (443 if parts.scheme == "https" else 80)
    try:
        addresses = [ipaddress.ip_address(a.split("%")[0]) for a in resolve(host, port)]
    except (OSError, UnicodeError, ValueError):
        raise bad_subscription(_("the push service's host cannot be found.")) from None
    if not addresses:
        raise bad_subscription(_("the push service's host cannot be found."))
    if not all(address_allowed(a, allow_local) for a in addresses):
        raise bad_subscription(
            _("its endpoint points at a private, loopback or link-local address.")
        )
    if parts.scheme == "http" and not all(a.is_loopback for a in addresses):
        raise bad_subscription(_("its endpoint is not an https URL."))
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return PushTarget(parts.scheme, host, port, str(addresses[0]), path)


__all__ = [
    "ALLOW_LOCAL_ENV",
    "MAX_ENDPOINT",
    "PushTarget",
    "Resolver",
    "address_allowed",
    "allow_local_from_env",
    "bad_subscription",
    "check_endpoint",
    "resolve_host",
]
