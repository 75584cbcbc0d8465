"""Connections: the hello (no token in URLs), refusals as close codes the browser sees,
caps per address and per table, rate limits per seat, and presence instead of states."""

from __future__ import annotations

import asyncio
import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.waiting import wait_until
from tests.web.conftest import new_table, started_table
from tests.web.helpers import joined, next_of, receive_json
from yahtzee.web.admission import MAX_PER_ADDRESS, MAX_PER_SEAT, MAX_SPECTATORS_PER_TABLE
from yahtzee.web.app import create_app
from yahtzee.web.connection import Answers
from yahtzee.web.hub import Hub


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def closed_with(ws: Any) -> int:
    """The close code that ends ``ws`` (after the handshake was accepted)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(100):
            receive_json(ws)
    return closed.value.code


# The hello ---------------------------------------------------------------------------


def test_refusals_come_after_the_handshake_so_the_browser_sees_them(client: TestClient) -> None:
    host = new_table(client)
    table_id = host["table"]["id"]
    evil = {"origin": "http://evil.example"}
    with client.websocket_connect(f"/ws/{table_id}", headers=evil) as ws:  # accepted
        assert closed_with(ws) == 4403
    for query in (f"token={host['token']}", f"spectate={host['spectate']}"):
        with client.websocket_connect(f"/ws/{table_id}?{query}") as ws:  # never in URLs
            assert closed_with(ws) == 4401
    for first in (
        {"type": "resync"},
        {"type": "hello"},
        {"type": "hello", "token": host["token"], "watch": host["spectate"]},
        {"type": "hello", "token": "guess"},
        {"type": "hello", "watch": "guess"},
    ):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json(first)
            assert closed_with(ws) == 4401, first
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_text("not json")
        assert closed_with(ws) == 4401
    with joined(client, table_id, token=host["token"]) as ws:
        assert next_of(ws, "state")["you"] == {"seat": 0, "role": "player"}


def test_a_connection_that_never_says_hello_is_closed(client: TestClient) -> None:
    hub_of(client).hello_timeout = 0.3
    host = new_table(client)
    with client.websocket_connect(f"/ws/{host['table']['id']}") as ws:
        started = time.monotonic()
        assert closed_with(ws) == 4401
        assert time.monotonic() - started < 5


# Caps --------------------------------------------------------------------------------


def test_connections_per_address_are_capped(client: TestClient) -> None:
    assert MAX_PER_ADDRESS == 8
    host = new_table(client)
    table_id = host["table"]["id"]
    with ExitStack() as stack:
        open_ones = [
            stack.enter_context(joined(client, table_id, watch=host["spectate"]))
            for _ in range(MAX_PER_ADDRESS - 1)
        ]
        for ws in open_ones:
            next_of(ws, "state")
        silent = stack.enter_context(client.websocket_connect(f"/ws/{table_id}"))  # no hello
        with client.websocket_connect(f"/ws/{table_id}") as extra:
            assert closed_with(extra) == 4429
        silent.close()
        wait_until(
            lambda: hub_of(client).addresses["testclient"] < MAX_PER_ADDRESS,
            timeout=10,
            what="the silent connection left",
        )
        with joined(client, table_id, watch=host["spectate"]) as again:
            assert next_of(again, "state")["you"]["role"] == "spectator"


def test_spectators_have_their_own_budget_and_never_keep_a_player_out(
    client: TestClient,
) -> None:
    """The spectator link is public: a crowd that fills the spectators' budget gets 4429
    for one more, and the players are admitted all the same (each seat within its own cap)."""
    assert (MAX_SPECTATORS_PER_TABLE, MAX_PER_SEAT) == (64, 8)
    hub_of(client).admission.max_per_address = 1000
    host = new_table(client)
    table_id = host["table"]["id"]
    with ExitStack() as stack:
        for _ in range(MAX_SPECTATORS_PER_TABLE):
            next_of(stack.enter_context(joined(client, table_id, watch=host["spectate"])), "state")
        with joined(client, table_id, watch=host["spectate"]) as extra:
            assert closed_with(extra) == 4429
        seat = [stack.enter_context(joined(client, table_id, token=host["token"]))]
        seat += [
            stack.enter_context(joined(client, table_id, token=host["token"]))
            for _ in range(MAX_PER_SEAT - 1)
        ]
        for ws in seat:
            assert next_of(ws, "state")["you"] == {"seat": 0, "role": "player"}
        with joined(client, table_id, token=host["token"]) as extra:
            assert closed_with(extra) == 4429
        seat[0].send_json({"type": "resync"})
        assert next_of(seat[0], "state")["spectators"] == MAX_SPECTATORS_PER_TABLE


def test_the_rate_limit_is_per_seat_not_per_connection(db: str) -> None:
    """Five connections of one seat sending 100 chat lines at once: most are refused."""
    with TestClient(create_app(db, bot_delay=0, rate=10)) as limited:
        host = new_table(limited, [])
        table_id = host["table"]["id"]
        with ExitStack() as stack:
            sockets = [
                stack.enter_context(joined(limited, table_id, token=host["token"]))
                for _ in range(5)
            ]
            for ws in sockets:
                next_of(ws, "state")
            for n, ws in enumerate(sockets):
                for i in range(20):
                    ws.send_json({"type": "chat", "text": "spam", "id": f"{n}-{i}"})
            outcomes: list[str] = []
            for ws in sockets:
                for _ in range(20):
                    answer = next_of(ws, "ack", "error")
                    outcomes.append(answer.get("code", answer["type"]))
        assert set(outcomes) == {"ack", "rate_limited"}
        assert outcomes.count("ack") <= 25 and outcomes.count("rate_limited") >= 75


# Presence instead of the full state ----------------------------------------------------


def test_spectators_joining_send_presence_not_the_state_to_everyone(client: TestClient) -> None:
    hub = hub_of(client)
    hub.admission.max_per_address = 1000
    host, _bob = started_table(client)
    table_id = host["table"]["id"]
    spectators = 50
    with ExitStack() as stack:
        ann = stack.enter_context(joined(client, table_id, token=host["token"]))
        next_of(ann, "state")
        fans = [
            stack.enter_context(joined(client, table_id, watch=host["spectate"]))
            for _ in range(spectators)
        ]
        for fan in fans:
            assert next_of(fan, "state")["type"] == "state"
        for _ in range(100):  # everyone hears of the last one, soon
            presence = next_of(ann, "presence", timeout=5)
            if presence["spectators"] == spectators:
                break
        assert presence == {"v": 1, "type": "presence", "connected": [0], "spectators": 50}
        assert hub.sent["state"] == spectators + 1  # one each, on connecting
        assert sum(hub.sent.values()) <= 8 * (spectators + 1), hub.sent


def test_an_answer_is_kept_as_its_text_in_its_place_and_a_refusal_is_forgotten() -> None:
    """`Answers`: a handled intent's answer is kept as text (no future per intent kept),
    in the order the intents came; a refused one is tried afresh; the oldest go first."""

    async def scenario() -> None:
        answers = Answers(kept=2)
        first, second = answers.begin("a"), answers.begin("b")
        assert answers.get("a") is first
        answers.end("a", first, "ack a", keep=True)
        answers.end("b", second, "refused", keep=False)
        assert first.result() == "ack a" and second.result() == "refused"
        assert answers.get("a") == "ack a" and answers.get("b") is None
        third = answers.begin("c")
        answers.end("c", third, "ack c", keep=True)
        answers.end("d", answers.begin("d"), "ack d", keep=True)  # "a" is the oldest: gone
        assert [answers.get(k) for k in "acd"] == [None, "ack c", "ack d"]

    asyncio.run(scenario())
