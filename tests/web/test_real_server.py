"""A real uvicorn server and a real WebSocket client; a restart keeps every table."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from tests.web.helpers import next_of, play_out
from yahtzee.web.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(db: str, port: int) -> Iterator[str]:
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(db, bot_delay=0, rate=1e6), host="127.0.0.1", port=port, log_level="warning"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Client:
    """A websockets connection with the helpers' send_json/receive_json."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url)

    def send_json(self, data: Any) -> None:
        self.ws.send(json.dumps(data))

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=30))

    def close(self) -> None:
        self.ws.close()


def setup_table(base: str) -> tuple[dict[str, Any], dict[str, Any]]:
    http = httpx.Client(base_url=f"http://{base}")
    host = http.post(
        "/api/tables",
        json={"host": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "level": 4}]},
    ).json()
    bob = http.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    started = http.post(
        f"/api/tables/{host['table']['id']}/start",
        headers={"Authorization": f"Bearer {host['token']}"},
    )
    assert started.status_code == 200
    return host, bob


def test_full_game_on_a_real_server(db: str) -> None:
    with running(db, free_port()) as base:
        host, bob = setup_table(base)
        table = host["table"]["id"]
        ann = Client(f"ws://{base}/ws/{table}?token={host['token']}")
        bob_ws = Client(f"ws://{base}/ws/{table}?token={bob['token']}")
        try:
            start = next_of(ann, "state")
            final = play_out({0: ann, 1: bob_ws}, ann, start["game"])
            assert final["phase"] == "over" and len(final["standings"]) == 3
            ann.send_json({"type": "roll"})
            assert next_of(ann, "error")["code"] == "game_over"
        finally:
            ann.close()
            bob_ws.close()


def test_a_restarted_server_serves_the_table_again(db: str) -> None:
    port = free_port()
    with running(db, port) as base:
        host, bob = setup_table(base)
        table = host["table"]["id"]
        ann = Client(f"ws://{base}/ws/{table}?token={host['token']}")
        game = next_of(ann, "state")["game"]
        ann.send_json({"type": "roll"})
        game = next_of(ann, "event")["game"]
        seq_before = None
        ann.send_json({"type": "resync"})
        seq_before = next_of(ann, "state")["seq"]
        ann.close()
    with running(db, port) as base:  # a new server process would do the same
        ann = Client(f"ws://{base}/ws/{table}?token={host['token']}")
        bob_ws = Client(f"ws://{base}/ws/{table}?token={bob['token']}")
        state = next_of(ann, "state")
        assert state["seq"] == seq_before and state["game"]["dice"] == game["dice"]
        final = play_out({0: ann, 1: bob_ws}, ann, state["game"])
        assert final["phase"] == "over"
        ann.close()
        bob_ws.close()
