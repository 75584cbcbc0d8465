"""Robust fan-out on a real server: a spectator that never reads cannot hold up a table.

Messages go to each connection through its own bounded queue and sender; a connection
whose queue fills up is closed (1013) and logged, and nobody ever waits for it.

The server's sockets get a small fixed send buffer (`SEND_BUFFER`). Its queue only fills
once everything below it is full, and Linux grows a socket's send buffer on its own up to
``net.ipv4.tcp_wmem`` (4 MiB here, more elsewhere): megabytes of chat, which took 30 s
or more to send, the longer the busier the machine. Meanwhile uvicorn's keepalive (a
ping every 20 s, 20 s for the pong) closes a client that never reads after 40 s, for
another reason than the one this test is about; under load that came first. With the
small buffer the queue fills after about a hundred kilobytes, whatever the kernel's
settings, and the wait for it is bounded by the clock (`CLOSED_WITHIN`), not by a count.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.live_server import Server
from tests.server_process import START_TIMEOUT
from tests.waiting import wait_until
from tests.web.helpers import next_of, seated
from yahtzee.web.app import create_app
from yahtzee.web.hub import Hub

ANSWER_WITHIN = 1.0
CHAT = "x" * 200
CHATS_PER_STEP = 40
CLOSED_WITHIN = 30.0
"""Seconds the table plays on before the silent spectator must have been closed for not
reading (it takes a few; uvicorn's keepalive would end it at 40 s, for another reason)."""
SEND_BUFFER = 4096
"""SO_SNDBUF of the server's sockets (Linux doubles it and then no longer grows it)."""


class FixedServer(Server):
    """uvicorn serving from a socket of the test's own, bound and set up beforehand."""

    def __init__(self, config: Any, sock: socket.socket) -> None:
        super().__init__(config)
        self.sock = sock

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        super().run(sockets=[self.sock])


def listening_socket() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1 whose send buffer the connections it
    accepts inherit (uvicorn and the event loop listen on it)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        sock.bind(("127.0.0.1", 0))
    except BaseException:
        sock.close()
        raise
    return sock


@contextmanager
def serving(db: str) -> Iterator[tuple[str, FastAPI]]:
    """A real uvicorn in a thread with the app at hand (its hub is looked at), its sockets
    with a send buffer of `SEND_BUFFER`; stopped on the way out whatever happened."""
    app = create_app(db, bot_delay=0, rate=1e6)
    sock = listening_socket()
    port = sock.getsockname()[1]
    server = FixedServer(uvicorn_config(app, port), sock)
    thread = threading.Thread(target=server.run_in_thread, daemon=True)
    try:
        thread.start()
        assert server.ready.wait(START_TIMEOUT), "uvicorn did not start"
        assert server.started, f"uvicorn stopped during its startup: {server.error!r}"
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        if thread.ident is not None:
            thread.join(timeout=10)
        if thread.is_alive():
            server.force_exit = True
            thread.join(timeout=10)
        sock.close()


def uvicorn_config(app: FastAPI, port: int) -> Any:
    import uvicorn

    return uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")


class SilentSpectator:
    """A spectator on a raw socket with a tiny receive buffer that says hello and then
    never reads."""

    def __init__(self, base: str, table: str, watch: str) -> None:
        host, port = base.split(":")
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET /ws/{table} HTTP/1.1\r\nHost: {base}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed the handshake"
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.send_text(json.dumps({"type": "hello", "watch": watch}))

    def send_text(self, text: str) -> None:
        self.send_frame(0x1, text.encode())

    def send_frame(self, opcode: int, payload: bytes) -> None:
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def read_to_the_end(self, timeout: float) -> tuple[bytes, bool]:
        """Everything the server still sends until it closes the connection; whether it
        cut it (a reset) rather than closing it. A close frame from the server is answered
        as a client does (the server would otherwise wait 10 s for the answer before
        it ends the connection)."""
        self.sock.settimeout(timeout)
        data = b""
        answered = False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return data, True
            except TimeoutError:
                raise AssertionError(f"the connection stayed open for {timeout:g} s") from None
            if not chunk:
                return data, False
            data += chunk
            code = close_code(data)
            if code is not None and not answered:
                answered = True
                try:
                    self.send_frame(0x8, struct.pack("!H", code))
                except (BrokenPipeError, ConnectionResetError):
                    return data, True
        raise AssertionError(f"the connection stayed open for {timeout:g} s")

    def close(self) -> None:
        self.sock.close()


def close_code(stream: bytes) -> int | None:
    """The code of the close frame among the server's (unmasked) frames, if one came (the
    stream may end in the middle of a frame)."""
    at = 0
    while at + 2 <= len(stream):
        opcode, length = stream[at] & 0x0F, stream[at + 1] & 0x7F
        at += 2
        if length >= 126:
            size = 2 if length == 126 else 8
            if at + size > len(stream):
                return None
            (length,) = struct.unpack("!H" if size == 2 else "!Q", stream[at : at + size])
            at += size
        if opcode == 0x8 and length >= 2 and at + 2 <= len(stream):
            return int(struct.unpack("!H", stream[at : at + 2])[0])
        at += length
    return None


def answered(ws: Any, key: str, game: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Read until the answer to the intent with id ``key`` (each message within
    :data:`ANSWER_WITHIN`); that answer and the game as last seen."""
    for _ in range(1000):
        message = next_of(ws, "ack", "error", "event", "state", timeout=ANSWER_WITHIN)
        if message["type"] in ("event", "state"):
            game = message["game"]
        elif message.get("id") == key:
            return message, game
    raise AssertionError(f"no answer to {key}")


def slow_closed(caplog: pytest.LogCaptureFixture) -> bool:
    return any(
        r.name == "yahtzee.web" and "does not read" in r.getMessage() for r in caplog.records
    )


def test_a_spectator_that_never_reads_holds_up_nobody(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="yahtzee.web")
    with serving(db) as (base, app), httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        made = http.post("/api/tables", json={"host": "Ann"}).json()
        table, token = made["table"]["id"], made["token"]
        headers = {"Authorization": f"Bearer {token}"}
        assert http.post(f"/api/tables/{table}/start", headers=headers).status_code == 200
        silent = SilentSpectator(base, table, made["spectate"])
        try:
            with seated(base, table, token=token) as ann:
                game = next_of(ann, "state")["game"]
                slowest, cycles, step = 0.0, 0, 0
                deadline = time.monotonic() + CLOSED_WITHIN
                while not slow_closed(caplog):
                    assert time.monotonic() < deadline, (
                        f"the silent spectator was not closed for not reading within "
                        f"{CLOSED_WITHIN:g} s ({step} steps)"
                    )
                    step += 1
                    intent: dict[str, Any] = (
                        {"type": "resync"}  # the game is over: the chat goes on
                        if game["phase"] == "over"
                        else {"type": "roll"}
                        if game["dice"] is None or game["rolls_left"]
                        else {"type": "score", "box": game["placements"][0]["box"]}
                    )
                    sent = time.monotonic()
                    ann.send_json({**intent, "id": f"step-{step}"})
                    ack, game = answered(ann, f"step-{step}", game)
                    slowest = max(slowest, time.monotonic() - sent)
                    assert ack["type"] == "ack", ack
                    for _ in range(CHATS_PER_STEP):
                        ann.send_json({"type": "chat", "text": CHAT})
                    for _ in range(3):  # spectators come and go
                        with seated(base, table, watch=made["spectate"]) as fan:
                            next_of(fan, "state", timeout=ANSWER_WITHIN)
                        cycles += 1
                assert slowest < ANSWER_WITHIN
                print(f"closed after {step} steps, {cycles} spectators; slowest {slowest:.3f} s")
                # the table goes on at once
                ann.send_json({"type": "resync", "id": "after"})
                assert answered(ann, "after", game)[0]["type"] == "ack"
            # the server ended the connection: its close (1013) came through once the
            # spectator read, or else it cut the connection after a grace period
            stream, _ = silent.read_to_the_end(timeout=15)
            cut = any("could not be sent" in r.getMessage() for r in caplog.records)
            assert close_code(stream) == 1013 or cut, (len(stream), close_code(stream))
            hub: Hub = app.state.hub
            wait_until(
                lambda: table not in hub.connections and not hub.addresses,
                timeout=10,
                what="every connection left the hub",
            )
            assert cycles >= 3
        finally:
            silent.close()
