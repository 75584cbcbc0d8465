"""Who may talk to the server: the Host and Origin checks of ``yahtzee.web.security``."""

from __future__ import annotations

import pytest

from yahtzee.web.security import AllowedHosts, origin_allowed

LOCAL = AllowedHosts.for_server("127.0.0.1", 8765)


@pytest.mark.parametrize(
    "headers",
    [
        {"host": "127.0.0.1:8765"},
        {"host": "localhost:8765", "origin": "http://localhost:8765"},
        {"Host": "[::1]:8765", "Origin": "http://[::1]:8765"},
        {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:8765"},
        {},  # no browser, no Host: nothing to check
    ],
)
def test_the_servers_own_addresses_are_allowed(headers: dict[str, str]) -> None:
    assert origin_allowed(headers, LOCAL)


@pytest.mark.parametrize(
    "headers",
    [
        # DNS rebinding: the attacker's name resolves to this machine; Host and Origin agree
        {"host": "evil.example:8765", "origin": "http://evil.example:8765"},
        {"host": "evil.example:8765"},
        {"host": "127.0.0.1:8765", "origin": "http://evil.example:8765"},
        {"host": "127.0.0.1:8765", "origin": "https://127.0.0.1:8765"},  # scheme differs
        {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:9999"},  # port differs
        {"host": "127.0.0.1:8765", "origin": "null"},
        {"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:8765/path"},
        {"host": "127.0.0.1:9999"},
        {"host": "127.0.0.1"},  # port 80 is not where it listens
        {"host": "http://127.0.0.1:8765"},
        {"host": "127.0.0.1:99999"},
    ],
)
def test_other_hosts_and_origins_are_refused(headers: dict[str, str]) -> None:
    assert not origin_allowed(headers, LOCAL)


def test_allowed_host_adds_origins_with_their_scheme() -> None:
    allowed = AllowedHosts.for_server(
        "0.0.0.0", 8000, ["192.168.1.5", "https://yahtzee.example", "Games.Example:9000"]
    )
    ok = [
        {"host": "192.168.1.5:8000", "origin": "http://192.168.1.5:8000"},
        {"host": "yahtzee.example", "origin": "https://yahtzee.example"},
        {"host": "yahtzee.example:443", "origin": "https://yahtzee.example:443"},
        {"host": "games.example:9000", "origin": "http://games.example:9000"},
        {"host": "localhost:8000", "origin": "http://localhost:8000"},  # a wildcard bind
    ]
    refused = [
        {"host": "yahtzee.example", "origin": "http://yahtzee.example"},
        {"host": "yahtzee.example:8000"},
        {"host": "0.0.0.0:8000"},
    ]
    assert all(origin_allowed(h, allowed) for h in ok)
    assert not any(origin_allowed(h, allowed) for h in refused)


def test_a_public_bind_allows_only_itself() -> None:
    allowed = AllowedHosts.for_server("192.168.1.5", 8000)
    assert origin_allowed({"host": "192.168.1.5:8000"}, allowed)
    assert not origin_allowed({"host": "localhost:8000"}, allowed)


@pytest.mark.parametrize("entry", ["ftp://x", "", "host:port", "http://x/path", "a:70000"])
def test_a_bad_allowed_host_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="HOST"):
        AllowedHosts.for_server("127.0.0.1", 8000, [entry])


def test_the_default_for_tests_refuses_other_names() -> None:
    local = AllowedHosts.local()
    assert origin_allowed({"host": "testserver"}, local)
    assert origin_allowed({"host": "127.0.0.1:5555", "origin": "http://127.0.0.1:5555"}, local)
    assert not origin_allowed({"host": "evil.example:8765"}, local)
