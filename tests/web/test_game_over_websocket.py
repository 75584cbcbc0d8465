"""A whole 3-seat game (2 humans, 1 bot) over WebSockets, and every refused intent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import new_table, started_table
from tests.web.helpers import joined, next_of, play_out, receive_json
from yahtzee.store import Store, history


def test_full_game_two_humans_and_a_bot(client: TestClient, db: str) -> None:
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    with (
        joined(client, table_id, token=host["token"]) as ann_ws,
        joined(client, table_id, token=bob["token"]) as bob_ws,
        joined(client, table_id, watch=host["spectate"]) as fan,
    ):
        start = next_of(ann_ws, "state")
        assert start["you"] == {"seat": 0, "role": "player"} and start["seq"] == 1
        assert next_of(fan, "state")["you"]["role"] == "spectator"
        final = play_out({0: ann_ws, 1: bob_ws}, ann_ws, start["game"])
        assert [s["name"] for s in final["standings"]] != []
        assert len(final["cards"]) == 3 and all(
            c["boxes"]["chance"] is not None for c in final["cards"]
        )
        seen = next_of(fan, "state", "event")
        assert seen["type"] in ("state", "event")
    with Store(db) as store:
        (summary,) = history(store)
        assert summary.status == "finished"
        log = store.event_log(summary.id)
        assert sum(1 for e in log if e["type"] == "score") == 39


def refused(ws: Any, message: Any, code: str) -> None:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    error = next_of(ws, "error")
    assert error["code"] == code, error
    assert error["message"]
    ws.send_json({"v": 1, "type": "resync"})


@pytest.fixture
def playing(client: TestClient) -> tuple[Any, Any, Any, str]:
    host, bob = started_table(client)
    return client, host, bob, host["table"]["id"]


def test_every_illegal_intent_is_refused_and_changes_nothing(playing: Any) -> None:
    client, host, bob, table_id = playing
    with (
        joined(client, table_id, token=host["token"]) as ann_ws,
        joined(client, table_id, token=bob["token"]) as bob_ws,
        joined(client, table_id, watch=host["spectate"]) as fan,
    ):
        before = next_of(ann_ws, "state")
        next_of(bob_ws, "state")
        next_of(fan, "state")
        cases: list[tuple[Any, Any, str]] = [
            (bob_ws, {"type": "roll"}, "not_your_turn"),
            (fan, {"type": "roll"}, "spectator"),
            (ann_ws, "{not json", "malformed_json"),
            (ann_ws, "x" * 5000, "too_large"),
            (ann_ws, {"type": "cheat"}, "unknown_type"),
            (ann_ws, {"type": "roll", "keep": 7}, "bad_message"),
            (ann_ws, {"type": "score", "box": "fh"}, "roll_first"),
            (ann_ws, {"type": "score", "box": "nonsense"}, "invalid_input"),
            (ann_ws, {"v": 2, "type": "roll"}, "bad_version"),
            (ann_ws, [1, 2], "bad_message"),
        ]
        for ws, message, code in cases:
            refused(ws, message, code)
            state = next_of(ws, "state")
            assert state["seq"] == before["seq"] and state["game"] == before["game"]
        # a legal turn, then a fourth roll and a filled box are refused too
        ann_ws.send_json({"type": "roll"})
        for _ in range(2):
            ann_ws.send_json({"type": "roll", "keep": ""})
        for _ in range(3):
            next_of(ann_ws, "event")
        refused(ann_ws, {"type": "roll"}, "no_rolls_left")
        state = next_of(ann_ws, "state")
        box = state["game"]["placements"][0]["box"]
        ann_ws.send_json({"type": "score", "box": box})
        game = next_of(ann_ws, "event")["game"]
        bob_ws.send_json({"type": "roll"})
        game = next_of(ann_ws, "event")["game"]
        bob_ws.send_json({"type": "score", "box": game["placements"][0]["box"]})
        while game["current"] != 0:  # the bot plays its turn by itself
            game = next_of(ann_ws, "event")["game"]
        ann_ws.send_json({"type": "roll"})
        game = next_of(ann_ws, "event")["game"]
        legal = {p["box"] for p in game["placements"]}
        if box not in legal:  # the Joker rule could forbid it anyway; it is filled either way
            refused(ann_ws, {"type": "score", "box": box}, "box_filled")
        seq = next_of(ann_ws, "state")["seq"]
        refused(bob_ws, {"type": "score", "box": box}, "not_your_turn")
        assert next_of(bob_ws, "state")["seq"] == seq


def test_wrong_tokens_and_origins_are_refused(playing: Any) -> None:
    client, host, _bob, table_id = playing
    for where, secret in (
        (table_id, {"token": "guess"}),
        (table_id, {"watch": "guess"}),
        ("nope", {"token": host["token"]}),
    ):
        with pytest.raises(WebSocketDisconnect) as closed, joined(client, where, **secret) as ws:
            receive_json(ws)
        assert closed.value.code == 4401
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        joined(
            client, table_id, token=host["token"], headers={"origin": "http://evil.example"}
        ) as ws,
    ):
        receive_json(ws)
    assert closed.value.code == 4403


def test_rest_errors_are_structured(client: TestClient) -> None:
    bad_rules = client.post("/api/tables", json={"host": "Ann", "rules": "bogus"})
    assert bad_rules.status_code == 400 and bad_rules.json()["code"] == "invalid_input"
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start").status_code == 403
    assert (
        client.post(f"/api/tables/{table_id}/start", headers={"Authorization": "Bearer x"}).json()[
            "code"
        ]
        == "not_host"
    )
    assert (
        client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host['token']}"}
        ).json()["code"]
        == "seats_open"
    )
    assert (
        client.post(f"/api/join/{host['invite']}", json={"name": "ann"}).json()["code"]
        == "name_taken"
    )
    joined = client.post(f"/api/join/{host['invite']}", json={"name": "<b>Bo</b>"}).json()
    assert joined["table"]["seats"][1]["name"] == "<b>Bo</b>"  # text, shown as text by clients
    full = client.post(f"/api/join/{host['invite']}", json={"name": "Cy"})
    assert full.status_code == 409 and full.json()["code"] == "table_full"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/join/nope", json={"name": "X"}).status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "yahtzee"


def test_a_turn_timer_decides_for_a_player_who_waits(client: TestClient) -> None:
    made = client.post("/api/tables", json={"host": "Ann", "turn_timer": 1}).json()
    table_id = made["table"]["id"]
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
    with joined(client, table_id, token=made["token"]) as ws:
        next_of(ws, "state")
        first = next_of(ws, "event")  # nobody acted: the server rolled for Ann
        assert first["event"]["type"] == "roll" and first["event"]["player"] == 0


def test_tables_per_client_and_messages_per_second_are_limited(db: str) -> None:
    from yahtzee.web.app import create_app

    with TestClient(create_app(db, bot_delay=0, rate=2, max_tables_per_client=2)) as limited:
        made = [limited.post("/api/tables", json={"host": f"H{i}"}) for i in range(3)]
        assert [m.status_code for m in made] == [201, 201, 403]
        assert made[2].json()["code"] == "too_many_tables"
        host = made[0].json()
        with joined(limited, host["table"]["id"], token=host["token"]) as ws:
            next_of(ws, "state")
            for _ in range(30):
                ws.send_json({"type": "resync"})
            codes = []
            for _ in range(30):
                message = receive_json(ws)
                codes.append(message.get("code") or message["type"])
            assert "rate_limited" in codes and "state" in codes


def test_the_host_hands_an_abandoned_seat_to_a_bot(client: TestClient) -> None:
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    refused_to_bob = client.post(
        f"/api/tables/{table_id}/seats/1/bot",
        json={"level": 2},
        headers={"Authorization": f"Bearer {bob['token']}"},
    )
    assert refused_to_bob.status_code == 403
    with joined(client, table_id, token=host["token"]) as ann_ws:
        start = next_of(ann_ws, "state")
        handed = client.post(
            f"/api/tables/{table_id}/seats/1/bot", json={"level": 2}, headers=headers
        )
        assert handed.status_code == 200 and handed.json()["seats"][1]["bot"] == "level2"
        final = play_out({0: ann_ws}, ann_ws, start["game"])  # Bob's seat plays by itself
        assert final["phase"] == "over"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        joined(client, table_id, token=bob["token"]) as gone,
    ):  # Bob's old token no longer acts for the seat
        receive_json(gone)
    assert closed.value.code == 4401
