"""A request relayed by one of the site's nodes is trusted only with the site's relay
key: then it is the client's (its address from the relay), marked relayed; with a wrong
key, or none, the relay's headers are taken off and nothing else changes."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from yahtzee.service.cluster.wire import CLIENT_HEADER, RELAY_HEADER, RELAY_KEY_HEADER
from yahtzee.web.relay import RelayTrust
from yahtzee.web.security import RELAYED


def seen_by_app(headers: dict[str, str], *, kind: str = "http") -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.update(scope)

    trust = RelayTrust(app, cluster=SimpleNamespace(relay_key="s3cret"))  # type: ignore[arg-type]
    scope = {
        "type": kind,
        "client": ("203.0.113.9", 5555),
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    asyncio.run(trust(scope, None, None))  # type: ignore[arg-type]
    return seen


def names(scope: dict[str, Any]) -> set[str]:
    return {k.decode() for k, _ in scope["headers"]}


def test_a_request_with_the_sites_relay_key_is_the_clients() -> None:
    relayed = {RELAY_HEADER: "n1/ab", RELAY_KEY_HEADER: "s3cret", CLIENT_HEADER: "198.51.100.7"}
    for kind in ("http", "websocket"):
        scope = seen_by_app(relayed, kind=kind)
        assert scope["client"] == ("198.51.100.7", 0)
        assert scope.get(RELAYED) is True


def test_a_wrong_key_or_none_changes_nothing_but_takes_the_relay_headers_off() -> None:
    for forged in (
        {RELAY_KEY_HEADER: "guess", CLIENT_HEADER: "10.0.0.1", "origin": "http://x"},
        {CLIENT_HEADER: "10.0.0.1", RELAY_HEADER: "n1/ab", "origin": "http://x"},
        {RELAY_KEY_HEADER: "", CLIENT_HEADER: "10.0.0.1", "origin": "http://x"},
    ):
        scope = seen_by_app(forged)
        assert scope["client"] == ("203.0.113.9", 5555)
        assert RELAYED not in scope
        assert names(scope) == {"origin"}


def test_a_plain_request_passes_untouched() -> None:
    scope = seen_by_app({"origin": "http://x"})
    assert scope["client"] == ("203.0.113.9", 5555) and RELAYED not in scope
