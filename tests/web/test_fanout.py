"""Robust fan-out on a real server: a spectator that never reads cannot hold up a table.

Messages go to each connection through its own bounded queue and sender; a connection
whose queue fills up is closed (1013) and logged, and nobody ever waits for it.
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

from tests.live_server import Server, free_port
from tests.server_process import START_TIMEOUT
from tests.waiting import wait_until
from tests.web.helpers import next_of, seated
from yahtzee.web.app import create_app
from yahtzee.web.hub import Hub

ANSWER_WITHIN = 1.0
CHAT = "x" * 200
CHATS_PER_STEP = 40
MAX_STEPS = 400


@contextmanager
def serving(db: str) -> Iterator[tuple[str, FastAPI]]:
    """A real uvicorn in a thread with the app at hand (its hub is looked at); stopped on
    the way out whatever happened."""
    app = create_app(db, bot_delay=0, rate=1e6)
    port = free_port()
    server = Server(uvicorn_config(app, port))
    thread = threading.Thread(target=server.run_in_thread, daemon=True)
    thread.start()
    try:
        assert server.ready.wait(START_TIMEOUT), "uvicorn did not start"
        assert server.started, f"uvicorn stopped during its startup: {server.error!r}"
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        if thread.is_alive():
            server.force_exit = True
            thread.join(timeout=10)


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
        payload = text.encode()
        assert len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def read_to_the_end(self, timeout: float) -> tuple[bytes, bool]:
        """Everything the server still sends until it closes the connection; whether it
        cut it (a reset) rather than closing it."""
        self.sock.settimeout(timeout)
        data = b""
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
        raise AssertionError(f"the connection stayed open for {timeout:g} s")

    def close(self) -> None:
        self.sock.close()


def close_code(stream: bytes) -> int | None:
    """The code of the close frame among the server's (unmasked) frames, if one came."""
    at = 0
    while at + 2 <= len(stream):
        opcode, length = stream[at] & 0x0F, stream[at + 1] & 0x7F
        at += 2
        if length == 126:
            (length,) = struct.unpack("!H", stream[at : at + 2])
            at += 2
        elif length == 127:
            (length,) = struct.unpack("!Q", stream[at : at + 8])
            at += 8
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
                while not slow_closed(caplog):
                    step += 1
                    assert step < MAX_STEPS, "the silent spectator was never closed"
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
