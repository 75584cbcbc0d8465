"""A connection that falls silent is away: a real server (uvicorn) and real WebSocket
clients. Pings are answered at once; a seat whose connection sent nothing (pings
included) for `AWAY_AFTER_S` is shown away to the others, and here again once it is
heard from, when it is told what the turn timer played for it meanwhile."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest

from tests.live_server import running
from tests.web.helpers import next_of, receive_json, seated

PRESENCE_WAIT_S = 11.0
"""A bound, not a measure: `presence.AWAY_AFTER_S` of silence, looked for every
`presence.LOOK_BEAT_S`, and a margin."""


@pytest.fixture
def base(db: str) -> Iterator[str]:
    with running(db) as found:
        yield found


def _two_players(base: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann and Bob at a started table with a turn timer of one second."""
    body = {"host": "Ann", "seats": [{"kind": "human"}], "turn_timer": 1}
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        host = http.post("/api/tables", json=body)
        assert host.status_code == 201, host.text
        made = host.json()
        bob = http.post(f"/api/join/{made['invite']}", json={"name": "Bob"}).json()
        started = http.post(
            f"/api/tables/{made['table']['id']}/start",
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        assert started.status_code == 200, started.text
    return made, bob


def _presence_until(ws: Any, connected: list[int], seen: list[dict[str, Any]]) -> None:
    """Read until a presence says exactly ``connected`` (the events meanwhile into
    ``seen``), pinging every second so that the reader itself never falls silent."""
    deadline = time.monotonic() + PRESENCE_WAIT_S
    while time.monotonic() < deadline:
        ws.send_json({"v": 1, "type": "ping"})
        pinged = time.monotonic()
        while time.monotonic() - pinged < 1.0:
            try:
                message = receive_json(ws, timeout=1.0)
            except AssertionError:  # nothing this second
                break
            if message["type"] == "event":
                seen.append(message)
            if message["type"] == "presence" and message["connected"] == connected:
                return
    raise AssertionError(f"no presence {connected} within {PRESENCE_WAIT_S:g} s")


def test_a_ping_is_answered_and_a_silent_seat_is_away_until_heard_again(base: str) -> None:
    made, bob = _two_players(base)
    table = made["table"]["id"]
    with ExitStack() as stack:
        ann_ws = stack.enter_context(seated(base, table, token=made["token"]))
        next_of(ann_ws, "state")
        bob_ws = stack.enter_context(seated(base, table, token=bob["token"]))
        state = next_of(bob_ws, "state")
        assert [s["connected"] for s in state["table"]["seats"]] == [True, True]
        bob_ws.send_json({"v": 1, "type": "ping"})
        assert next_of(bob_ws, "pong") == {"v": 1, "type": "pong"}
        seen: list[dict[str, Any]] = []
        # Ann sends nothing (not even a ping): after a while she is away; meanwhile the
        # timer plays her turns, and everyone is told it is the timer's move
        _presence_until(bob_ws, [1], seen)
        state = _state(bob_ws)
        assert [s["connected"] for s in state["table"]["seats"]] == [False, True]
        by_timer = [m["event"] for m in seen if m["by_timer"] and m["event"]["player"] == 0]
        assert any(event["type"] == "score" for event in by_timer), seen
        ann_ws.send_json({"v": 1, "type": "ping"})  # heard again: here again
        told = next_of(ann_ws, "played_for")  # before the pong: what the timer played
        assert told["seat"] == 0  # every move Bob saw the timer make for Ann, in order
        assert json.dumps(by_timer)[1:-1] in json.dumps(told["events"])
        assert told["events"][-1]["type"] == "score"  # whole turns
        assert next_of(ann_ws, "pong")["type"] == "pong"
        _presence_until(bob_ws, [0, 1], seen)


def _state(ws: Any) -> dict[str, Any]:
    ws.send_json({"v": 1, "type": "resync"})
    return next_of(ws, "state")
