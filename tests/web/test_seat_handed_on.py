"""A seat handed to a bot: its old connections are closed (4409) and act no more."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import started_table
from tests.web.helpers import joined, next_of, receive_json
from yahtzee.store import tables as records


def bobs_turn(ann: Any) -> dict[str, Any]:
    """Ann rolls and scores: Bob (seat 1) is to act."""
    game = next_of(ann, "state")["game"]
    ann.send_json({"type": "roll"})
    game = next_of(ann, "event")["game"]
    ann.send_json({"type": "score", "box": game["placements"][0]["box"]})
    game = next_of(ann, "event")["game"]
    assert game["current"] == 1
    return game


def test_every_connection_of_a_seat_handed_to_a_bot_is_closed(client: TestClient) -> None:
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    with (
        joined(client, table_id, token=host["token"]) as ann,
        joined(client, table_id, token=bob["token"]) as phone,
        joined(client, table_id, token=bob["token"]) as laptop,
    ):
        bobs_turn(ann)
        handed = client.post(f"/api/tables/{table_id}/seats/1/bot", json={}, headers=headers)
        assert handed.status_code == 200, handed.text
        for old in (phone, laptop):
            with pytest.raises(WebSocketDisconnect) as closed:
                next_of(old, "never")
            assert closed.value.code == 4409
        game = next_of(ann, "event")["game"]  # the bot plays the seat now
        while game["current"] == 1:
            game = next_of(ann, "event")["game"]
        assert game["current"] == 2
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        joined(client, table_id, token=bob["token"]) as again,
    ):
        receive_json(again)
    assert refused.value.code == 4401


def test_a_seat_being_handed_on_acts_no_more(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the hand-over is being saved, the old connection's roll is not applied: its
    connection is closed instead."""
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    saving, release = threading.Event(), threading.Event()
    save = records.save_table_seat

    def held(*args: Any, **kwargs: Any) -> Any:
        saving.set()
        release.wait(timeout=30)
        return save(*args, **kwargs)

    answers: list[Any] = []
    hand_over = threading.Thread(
        target=lambda: answers.append(
            client.post(f"/api/tables/{table_id}/seats/1/bot", json={}, headers=headers)
        ),
        daemon=True,
    )
    try:
        with (
            joined(client, table_id, token=host["token"]) as ann,
            joined(client, table_id, token=bob["token"]) as bob_ws,
        ):
            bobs_turn(ann)
            next_of(bob_ws, "state")
            monkeypatch.setattr(records, "save_table_seat", held)
            hand_over.start()
            assert saving.wait(timeout=10), "the hand-over did not start"
            bob_ws.send_json({"type": "roll", "id": "late"})
            with pytest.raises(WebSocketDisconnect) as closed:
                next_of(bob_ws, "never")
            assert closed.value.code == 4409
            with pytest.raises(AssertionError, match="no message"):
                next_of(ann, "event", timeout=1)  # Bob's roll was not applied
            release.set()
            hand_over.join(timeout=30)
            assert answers and answers[0].status_code == 200, answers
            event = next_of(ann, "event")
            assert event["event"]["player"] == 1  # the bot's move
    finally:
        release.set()
        if hand_over.is_alive():
            hand_over.join(timeout=30)


def test_a_player_who_resigns_is_let_go_and_the_stand_in_plays_the_seat(
    client: TestClient,
) -> None:
    """Bob resigns on his phone: every connection of his seat is closed (4409), Ann is
    shown the stand-in bot in his seat, the bot plays his turns under his name, and his
    token no longer opens the table."""
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    with (
        joined(client, table_id, token=host["token"]) as ann,
        joined(client, table_id, token=bob["token"]) as phone,
        joined(client, table_id, token=bob["token"]) as laptop,
    ):
        next_of(phone, "state")
        phone.send_json({"type": "resign", "id": "bob-resigns"})
        for old in (phone, laptop):
            with pytest.raises(WebSocketDisconnect) as closed:
                next_of(old, "never")
            assert closed.value.code == 4409
        seat = next_of(ann, "lobby")["table"]["seats"][1]
        assert seat["bot"] and seat["name"] == "Bob"
        ann.send_json({"type": "roll"})
        game = next_of(ann, "event")["game"]
        ann.send_json({"type": "score", "box": game["placements"][0]["box"]})
        game = next_of(ann, "event")["game"]
        while game["current"] == 1:  # the stand-in plays Bob's turn
            game = next_of(ann, "event")["game"]
        assert game["players"][1] == "Bob" and game["current"] == 2
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        joined(client, table_id, token=bob["token"]) as again,
    ):
        receive_json(again)
    assert refused.value.code == 4401
