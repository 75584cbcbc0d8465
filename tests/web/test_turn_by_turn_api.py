"""Turn-by-turn tables through the web API (in-process): the time per move up to three
days, the timeout rule chosen at creation and shown with the table, each bad value a
documented refusal that records nothing, and the ``timed_out`` message everyone at the
table is sent when a move's time runs out."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.helpers import joined, next_of
from yahtzee.store import Store
from yahtzee.store import tables as records

THREE_DAYS = 3 * 24 * 60 * 60


def create(client: TestClient, **fields: Any) -> Any:
    body = {"host": "Ann", "seats": [{"kind": "human"}], **fields}
    return client.post("/api/tables", json=body)


def test_a_table_of_three_days_a_move_with_its_rule(client: TestClient) -> None:
    made = create(
        client, turn_timer=THREE_DAYS, timeout_rule="out", timeout_level=2, timeout_missed=4
    )
    assert made.status_code == 201, made.text
    table = made.json()["table"]
    assert table["turn_timer"] == THREE_DAYS and table["turn_by_turn"] is True
    assert table["timeout"] == {"rule": "out", "level": 2, "missed": 4}
    assert table["deadline"] is None
    assert [(s["missed"], s["out"]) for s in table["seats"]] == [(0, False), (0, False)]
    bob = client.post(f"/api/join/{made.json()['invite']}", json={"name": "Bob"})
    assert bob.status_code == 200, bob.text
    before = time.time()
    started = client.post(
        f"/api/tables/{table['id']}/start",
        headers={"Authorization": f"Bearer {made.json()['token']}"},
    )
    assert started.status_code == 200, started.text
    deadline = started.json()["deadline"]
    assert before + THREE_DAYS <= deadline <= time.time() + THREE_DAYS


def test_live_play_is_not_turn_by_turn_and_the_rule_defaults_to_a_level_3_bot(
    client: TestClient,
) -> None:
    table = create(client, turn_timer=600).json()["table"]
    assert table["turn_by_turn"] is False
    assert table["timeout"] == {"rule": "bot", "level": 3, "missed": 3}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"turn_timer": THREE_DAYS + 1}, "The turn timer must be a whole number of seconds "
         f"from 1 to {THREE_DAYS} (three days)."),
        ({"turn_timer": 0}, "The turn timer must be"),
        ({"timeout_rule": "skip"}, "The timeout rule"),
        ({"timeout_level": 6}, "The timeout bot's level must be a whole number from 1 to 5."),
        ({"timeout_missed": 0}, "Missed turns before a seat is out must be a whole number "
         "from 1 to 10."),
        ({"timeout_missed": "3"}, "Missed turns before a seat is out"),
    ],
)  # fmt: skip
def test_bad_settings_are_refused_and_record_nothing(
    client: TestClient, db: str, fields: dict[str, Any], message: str
) -> None:
    refused = create(client, **fields)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "bad_request"
    assert refused.json()["message"].startswith(message), refused.json()
    with Store(db) as store:
        assert records.open_tables(store) == []


def test_a_timer_on_real_dice_is_refused(client: TestClient) -> None:
    refused = create(client, turn_timer=3600, dice="entered", seats=[])
    assert refused.status_code == 400 and refused.json()["code"] == "timer_needs_rolled_dice"


def test_everyone_is_told_when_a_moves_time_runs_out_and_the_seat_is_out(
    client: TestClient,
) -> None:
    """A second a move and the rule ``out`` after one missed turn: Ann lets her time run
    out; Bob and Ann are both sent ``timed_out`` (Ann out), and Ann's connection is let
    go (her seat is the bot's)."""
    made = create(client, turn_timer=1, timeout_rule="out", timeout_missed=1).json()
    table_id = made["table"]["id"]
    bob = client.post(f"/api/join/{made['invite']}", json={"name": "Bob"}).json()
    with (
        joined(client, table_id, token=made["token"]) as ann_ws,
        joined(client, table_id, token=bob["token"]) as bob_ws,
    ):
        next_of(ann_ws, "lobby", "state")
        next_of(bob_ws, "lobby", "state")
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert started.status_code == 200, started.text
        told = {"v": 1, "type": "timed_out", "seat": 0, "name": "Ann", "rule": "out",
                "missed": 1, "out": True}  # fmt: skip
        assert next_of(bob_ws, "timed_out") == told
        assert next_of(ann_ws, "timed_out") == told
        with pytest.raises(WebSocketDisconnect) as closed:
            next_of(ann_ws, "never")
        assert closed.value.code == 4409
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert (seats[0]["out"], seats[0]["missed"], seats[0]["bot"]) == (True, 1, "level3")
