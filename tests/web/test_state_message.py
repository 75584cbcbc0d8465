"""What a connection is shown: the recent chat and the turn's deadline in the state, the
lobby as it changes, the game when it starts, and the review for spectators too."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, play_out, say_lines
from yahtzee.service.chat import CHAT_KEPT


def test_the_state_carries_the_recent_chat(client: TestClient) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        say_lines(ann, CHAT_KEPT + 10)
    with joined(client, table_id, watch=host["spectate"]) as fan:  # a reload keeps it
        chat = next_of(fan, "state")["chat"]
    assert len(chat) == CHAT_KEPT == 50
    assert chat[0]["text"] == "line 10" and chat[-1] == {
        "v": 1,
        "type": "chat",
        "seat": 0,
        "name": "Ann",
        "text": "line 59",
    }


def test_the_state_and_events_carry_the_turn_deadline(client: TestClient) -> None:
    made = client.post("/api/tables", json={"host": "Ann", "turn_timer": 60}).json()
    table_id = made["table"]["id"]
    with joined(client, table_id, token=made["token"]) as ann:
        assert next_of(ann, "state")["turn_deadline"] is None  # not started
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert started.status_code == 200
        state = next_of(ann, "state")  # the game started: the whole state, once
        assert state["game"]["current"] == 0
        assert 50 < state["turn_deadline"] - time.time() <= 60
        ann.send_json({"type": "roll"})
        event = next_of(ann, "event")
        assert event["turn_deadline"] >= state["turn_deadline"]
        ann.send_json({"type": "resync"})
        assert next_of(ann, "state")["turn_deadline"] == event["turn_deadline"]


def test_lobby_changes_are_lobby_messages(client: TestClient) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        client.post(f"/api/join/{host['invite']}", json={"name": "Bob"})
        lobby = next_of(ann, "lobby")
        assert lobby["table"]["seats"][1]["name"] == "Bob"


def test_spectators_get_the_review(client: TestClient) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.post(f"/api/tables/{table_id}/start", headers=headers).status_code == 200
    with (
        joined(client, table_id, token=host["token"]) as ann,
        joined(client, table_id, watch=host["spectate"]) as fan,
    ):
        final = play_out({0: ann}, ann, next_of(ann, "state")["game"])
        assert final["phase"] == "over"
        fan.send_json({"type": "review", "id": "rv"})
        review = next_of(fan, "review")
        assert [p["name"] for p in review["players"]] == ["Ann"]
        assert next_of(fan, "ack")["id"] == "rv"
        fan.send_json({"type": "chat", "text": "gg"})
        assert next_of(fan, "error")["code"] == "spectator"
