"""``yahtzee serve``: whom it trusts for X-Forwarded-For, which hosts it answers for,
uvicorn's WebSocket message limit at the protocol's, and its deadline for headers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server_process import ROOT, START_TIMEOUT, free_port
from yahtzee.cli import main
from yahtzee.service import MAX_TABLES_PER_CLIENT
from yahtzee.web.http_guard import HEADER_TIMEOUT_S, GuardedHttp
from yahtzee.web.protocol import MAX_MESSAGE_BYTES
from yahtzee.web.security import origin_allowed
from yahtzee.web.serving import PING_INTERVAL_S, PING_TIMEOUT_S, WEBSOCKETS


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What ``yahtzee serve`` hands uvicorn (its configuration and the sockets it bound
    for it: the server is not started)."""
    seen: dict[str, Any] = {}

    def run(server: uvicorn.Server, sockets: list[socket.socket] | None = None) -> None:
        assert sockets and all(s.getsockname()[1] == PORT for s in sockets)
        seen.update(vars(server.config), sockets=sockets)

    monkeypatch.setattr(uvicorn.Server, "run", run)
    return seen


PORT = free_port()


def serve(db: str, *options: str) -> int:
    return main(["serve", "--database-url", db, "--port", str(PORT), *options])


def test_uvicorn_is_told_whom_to_trust_and_how_big_a_message_is(
    started: dict[str, Any], db: str
) -> None:
    assert serve(db) == 0
    assert started["ws_max_size"] == MAX_MESSAGE_BYTES
    # keepalive pings by uvicorn's own protocol and options (no subclass of its classes)
    assert started["ws"] == WEBSOCKETS
    assert (started["ws_ping_interval"], started["ws_ping_timeout"]) == (
        PING_INTERVAL_S,
        PING_TIMEOUT_S,
    )
    assert issubclass(started["http"], GuardedHttp)  # uvicorn has no limits nor deadline
    assert started["http"].header_timeout == HEADER_TIMEOUT_S  # the default, as the web has it
    assert serve(db, "--header-timeout", "2.5") == 0
    assert started["http"].header_timeout == 2.5
    assert started["proxy_headers"] is False  # uvicorn would trust 127.0.0.1 otherwise
    assert serve(db, "--forwarded-allow-ips", "10.0.0.1, 10.1.0.0/16") == 0
    assert started.get("proxy_headers") is True
    assert started["forwarded_allow_ips"] == "10.0.0.1,10.1.0.0/16"


def test_allowed_hosts_reach_the_app(
    started: dict[str, Any], db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve(db, "--allowed-host", "https://yahtzee.example", "--allowed-host", "pi:80") == 0
    allowed = started["app"].state.allowed_hosts
    assert "https://yahtzee.example:443" in capsys.readouterr().out
    ok = [
        {"host": f"127.0.0.1:{PORT}", "origin": f"http://127.0.0.1:{PORT}"},
        {"host": f"localhost:{PORT}"},
        {"host": "yahtzee.example", "origin": "https://yahtzee.example"},
        {"host": "pi", "origin": "http://pi"},
    ]
    refused = [
        {"host": f"evil.example:{PORT}", "origin": f"http://evil.example:{PORT}"},
        {"host": "yahtzee.example", "origin": "http://yahtzee.example"},
    ]
    assert all(origin_allowed(h, allowed) for h in ok)
    assert not any(origin_allowed(h, allowed) for h in refused)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--allowed-host", "ftp://x"], "--allowed-host"),
        (["--allowed-host", "x/y"], "--allowed-host"),
        (["--forwarded-allow-ips", "proxy.example"], "--forwarded-allow-ips"),
        (["--forwarded-allow-ips", ","], "--forwarded-allow-ips"),
        (["--header-timeout", "0"], "--header-timeout"),
        (["--header-timeout", "1e9"], "--header-timeout"),
        (["--node-id", "a"], "--node-id needs --redis-url"),
        (["--lease-ttl", "2"], "--lease-ttl needs --redis-url"),
        (["--redis-url", "redis://127.0.0.1:1/0"], "PostgreSQL"),  # the db here is SQLite
        (["--redis-url", "http://x"], "--redis-url"),
    ],
)
def test_bad_options_are_one_line(
    started: dict[str, Any],
    db: str,
    capsys: pytest.CaptureFixture[str],
    options: list[str],
    said: str,
) -> None:
    assert serve(db, *options) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and said in error
    assert "app" not in started


def test_a_taken_port_or_an_unknown_host_is_one_line_before_any_address(db: str) -> None:
    """Regression: a second server on a taken port printed "open http://127.0.0.1:8000/"
    (the other server's address), then uvicorn's error, and exited 3; an unknown --host
    the same. Now nothing is printed but one line naming the address and why, exit 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for host, said in [("127.0.0.1", "another server listens there"),
                           ("nosuchhost.invalid", "no such address")]:  # fmt: skip
            done = subprocess.run(
                [sys.executable, "-m", "yahtzee", "serve", "--host", host, "--port", str(port),
                 "--database-url", db],
                cwd=ROOT, capture_output=True, text=True, timeout=START_TIMEOUT, check=False,
            )  # fmt: skip
            assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
            assert done.stdout == ""
            assert done.stderr.startswith(f"yahtzee: error: Cannot listen on {host}:{port}: ")
            assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


@contextmanager
def serving(db: str, *options: str) -> Iterator[str]:
    """``yahtzee serve`` in its own process; yields its base URL."""
    port = free_port()
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "yahtzee", "serve", "--port", str(port),
             "--database-url", db, "--bot-delay", "0", *options],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr, env=dict(os.environ),
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                assert proc.poll() is None, "the server exited before it answered"
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def create_tables(base: str, forwarded: list[str]) -> list[int]:
    with httpx.Client(base_url=base, timeout=30) as http:
        return [
            http.post(
                "/api/tables", json={"host": "Ann"}, headers={"X-Forwarded-For": address}
            ).status_code
            for address in forwarded
        ]


def test_x_forwarded_for_does_not_bypass_the_quota(tmp_path: Path) -> None:
    """From loopback, uvicorn would take X-Forwarded-For as the client's address: each
    table would count for another client. Unless --forwarded-allow-ips says so, it does not."""
    spoofed = [f"203.0.113.{n}" for n in range(MAX_TABLES_PER_CLIENT + 1)]
    with serving(f"sqlite:///{tmp_path / 'a.db'}") as base:
        codes = create_tables(base, spoofed)
    assert codes == [201] * MAX_TABLES_PER_CLIENT + [403]
    with serving(f"sqlite:///{tmp_path / 'b.db'}", "--forwarded-allow-ips", "127.0.0.1") as base:
        assert create_tables(base, spoofed) == [201] * len(spoofed)  # a trusted proxy's clients
        same = ["198.51.100.7"] * (MAX_TABLES_PER_CLIENT + 1)
        assert create_tables(base, same) == [201] * MAX_TABLES_PER_CLIENT + [403]


def test_a_frame_over_the_protocols_limit_is_not_read(tmp_path: Path) -> None:
    """uvicorn closes the connection (1009) instead of reading a big frame for the app."""
    with serving(f"sqlite:///{tmp_path / 'c.db'}") as base:
        with httpx.Client(base_url=base, timeout=30) as http:
            table = http.post("/api/tables", json={"host": "Ann"}).json()["table"]["id"]
        url = base.replace("http://", "ws://") + f"/ws/{table}"
        with connect(url, open_timeout=10, close_timeout=5, max_size=None) as ws:
            ws.send("x" * (MAX_MESSAGE_BYTES + 1))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
