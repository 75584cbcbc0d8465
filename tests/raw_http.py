"""Requests written byte for byte on a plain socket, for what a server (or nginx) does
with requests that HTTP clients will not send: oversized, malformed, never ending."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

WAIT = 10.0
"""The most any answer is waited for."""

Answer = tuple[int, dict[str, str], Any]
"""An answer's status, its headers (names in lower case) and its body: JSON, else text
(None when empty)."""


def connect(port: int) -> socket.socket:
    """A connection to 127.0.0.1:``port``, each of its calls bounded by `WAIT`."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    sock.settimeout(WAIT)
    return sock


def read_to_the_end(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (within `WAIT` seconds; a
    reset, from a server that closes with bytes of ours unread, ends it too)."""
    deadline = time.monotonic() + WAIT
    got = b""
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk
    raise AssertionError(f"the server did not close the connection within {WAIT:g} s")


def read_one(sock: socket.socket) -> bytes:
    """One answer with a ``Content-Length``, on a connection that stays open."""
    got = b""
    while b"\r\n\r\n" not in got or len(got.partition(b"\r\n\r\n")[2]) < _length(got):
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed in the middle of an answer: {got!r}"
        got += chunk
    return got


def _length(raw: bytes) -> int:
    return int(answer_headers(raw.partition(b"\r\n\r\n")[0])["content-length"])


def answer_headers(head: bytes) -> dict[str, str]:
    """An answer's headers, names in lower case."""
    lines = head.decode("latin-1").split("\r\n")[1:]
    return {name.lower(): value for name, _, value in (line.partition(": ") for line in lines)}


def answer_of(raw: bytes) -> Answer:
    head, _, body = raw.partition(b"\r\n\r\n")
    status, headers = int(head.split(b" ", 2)[1]), answer_headers(head)
    if headers.get("content-type") == "application/json":
        return status, headers, json.loads(body)
    return status, headers, body.decode("latin-1") or None


def refusal_message(answer: Answer, status: int, code: str) -> str:
    """The message of a refusal in the documented shape (``{"code", "message"}``, JSON),
    the connection closed after it."""
    got, headers, body = answer
    assert (got, headers["content-type"], headers["connection"]) == (
        status,
        "application/json",
        "close",
    ), answer
    assert set(body) == {"code", "message"} and body["code"] == code, body
    message: str = body["message"]
    return message


def request(
    host: str, path: str = "/api/health", headers: list[tuple[str, str]] | None = None
) -> bytes:
    """A GET of ``path`` with ``Host: host``, then ``headers``."""
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", *(f"{n}: {v}" for n, v in headers or [])]
    return "\r\n".join([*lines, "", ""]).encode()


def ask(port: int, raw: bytes) -> Answer:
    """Send ``raw`` on a new connection and read the answer, to the connection's end."""
    with connect(port) as sock:
        sock.sendall(raw)
        return answer_of(read_to_the_end(sock))


__all__ = [
    "WAIT",
    "Answer",
    "answer_headers",
    "answer_of",
    "ask",
    "connect",
    "read_one",
    "read_to_the_end",
    "refusal_message",
    "request",
]
