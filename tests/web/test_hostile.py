"""Hostile clients against a real ``yahtzee serve`` process: values of the wrong JSON type,
a name that only looks different, a body too large, headers that never end. Each gets its
documented refusal, nothing changes, and everyone else is served meanwhile. (A crowd of
spectators: `test_connections`.)"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server_process import ServerProcess
from yahtzee.web.limits import MAX_BODY_BYTES

HEADER_TIMEOUT = 1.0
"""The server's --header-timeout here: short, so the tests that wait for it are quick."""
WAIT = 10.0
"""The most any answer is waited for."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("hostile") / "server.db"
    process = ServerProcess(f"sqlite:///{db}", extra_args=["--header-timeout", str(HEADER_TIMEOUT)])
    try:
        process.start()
        yield process
    finally:
        process.stop()


@pytest.fixture
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, timeout=WAIT) as client:
        yield client


def new_table(http: httpx.Client, host: str = "Ann", **body: Any) -> dict[str, Any]:
    made = http.post("/api/tables", json={"host": host, **body})
    assert made.status_code == 201, made.text
    table: dict[str, Any] = made.json()
    return table


# The body limit and the header deadline (raw sockets) ---------------------------------


def connect(server: ServerProcess) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    sock.settimeout(WAIT)
    return sock


def read_to_the_end(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (within `WAIT` seconds)."""
    deadline = time.monotonic() + WAIT
    got = b""
    while time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            return got
        got += chunk
    raise AssertionError(f"the server did not close the connection within {WAIT:g} s")


def answer_of(raw: bytes) -> tuple[int, dict[str, str], Any]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, json.loads(body) if body else None


def post_head(server: ServerProcess, path: str, framing: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\n{framing}\r\n\r\n"
    ).encode()


def test_a_body_over_the_limit_is_refused_unread(server: ServerProcess, http: httpx.Client) -> None:
    """413 ``too_large`` and the connection closed, whether the Content-Length says so or
    a chunked body grows past the limit: the server answers before the body ends."""
    host = new_table(http, seats=[{"kind": "human"}])
    table = host["table"]
    join = f"/api/join/{host['invite']}"
    with connect(server) as sock:  # says 10 MB, sends one byte
        sock.sendall(post_head(server, join, "Content-Length: 10000000") + b"{")
        status, headers, body = answer_of(read_to_the_end(sock))
    assert (status, body["code"], headers["connection"]) == (413, "too_large", "close")
    assert str(MAX_BODY_BYTES) in body["message"]
    with connect(server) as sock:  # chunked, past the limit, never ended
        sock.sendall(post_head(server, join, "Transfer-Encoding: chunked"))
        chunk = b" " * 1024
        for _ in range(MAX_BODY_BYTES // len(chunk) + 1):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        status, _, body = answer_of(read_to_the_end(sock))
    assert (status, body["code"]) == (413, "too_large")
    assert http.get(f"/api/tables/{table['id']}").json() == table  # seat 1 still open
    padded = json.dumps({"name": "Bob"}).ljust(MAX_BODY_BYTES)  # at the limit: served
    answer = http.post(join, content=padded, headers={"content-type": "application/json"})
    assert answer.status_code == 200 and answer.json()["seat"] == 1


def test_headers_that_never_end_are_cut(server: ServerProcess, http: httpx.Client) -> None:
    """A connection that sends nothing is closed after --header-timeout; one that trickles
    header lines (each well within the time) gets 408 ``too_slow`` after it too: the time
    counts from the start. Everyone else is served meanwhile."""
    with connect(server) as silent, connect(server) as slow:
        started = time.monotonic()
        slow.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        slow.settimeout(HEADER_TIMEOUT / 5)
        got = b""
        while time.monotonic() - started < WAIT:
            assert http.get("/api/health").status_code == 200
            try:
                slow.sendall(b"X-Slow: yes\r\n")
                chunk = slow.recv(65536)
            except TimeoutError:
                continue
            except ConnectionError:  # cut while this line was on its way
                break
            if not chunk:
                break
            got += chunk
        cut_after = time.monotonic() - started
        assert silent.recv(1) == b""  # closed long since, with nothing said
    assert HEADER_TIMEOUT * 0.9 <= cut_after < HEADER_TIMEOUT + 2, cut_after
    status, headers, body = answer_of(got)
    assert (status, body["code"], headers["connection"]) == (408, "too_slow", "close")
