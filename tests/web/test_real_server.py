"""A real uvicorn server and a real WebSocket client; a restart keeps every table."""

from __future__ import annotations

from typing import Any

import httpx

from tests.live_server import free_port, running
from tests.web.helpers import next_of, play_out, seated


def setup_table(base: str) -> tuple[dict[str, Any], dict[str, Any]]:
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
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
        with (
            seated(base, table, token=host["token"]) as ann,
            seated(base, table, token=bob["token"]) as bob_ws,
        ):
            start = next_of(ann, "state")
            final = play_out({0: ann, 1: bob_ws}, ann, start["game"])
            assert final["phase"] == "over" and len(final["standings"]) == 3
            ann.send_json({"type": "roll"})
            assert next_of(ann, "error")["code"] == "game_over"


def test_a_restarted_server_serves_the_table_again(db: str) -> None:
    port = free_port()
    with running(db, port) as base:
        host, bob = setup_table(base)
        table = host["table"]["id"]
        with seated(base, table, token=host["token"]) as ann:
            game = next_of(ann, "state")["game"]
            ann.send_json({"type": "roll"})
            game = next_of(ann, "event")["game"]
            ann.send_json({"type": "resync"})
            seq_before = next_of(ann, "state")["seq"]
    with (
        running(db, port) as base,  # a new server process would do the same
        seated(base, table, token=host["token"]) as ann,
        seated(base, table, token=bob["token"]) as bob_ws,
    ):
        state = next_of(ann, "state")
        assert state["seq"] == seq_before and state["game"]["dice"] == game["dice"]
        final = play_out({0: ann, 1: bob_ws}, ann, state["game"])
        assert final["phase"] == "over"
