"""Held dice keep their places through a roll, a reconnection and a resync, and everyone
at the table sees the hold live (issue 26, item 2)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import started_table
from tests.web.helpers import answer, joined, next_of


@contextmanager
def ann_and_bob(client: TestClient) -> Iterator[tuple[Any, Any, str, str]]:
    """Ann (to move) and Bob connected to a started table; its id and Ann's token."""
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    with (
        joined(client, table_id, token=host["token"]) as ann,
        joined(client, table_id, token=bob["token"]) as other,
    ):
        next_of(ann, "state"), next_of(other, "state")
        yield ann, other, table_id, host["token"]


def rolled(ws: Any) -> dict[str, Any]:
    game: dict[str, Any] = next_of(ws, "event")["game"]
    return game


def test_held_dice_stay_in_their_places_and_everyone_sees_the_hold(client: TestClient) -> None:
    with ann_and_bob(client) as (ann, watcher, table_id, token):
        ann.send_json({"type": "roll", "id": "r1"})
        game = rolled(ann)
        slots = game["slots"]
        assert sorted(slots) == list(game["dice"]) and game["held"] == []
        ann.send_json({"type": "hold", "held": [4, 1], "id": "h1"})
        assert answer(ann, "h1")["type"] == "ack"
        seen = next_of(watcher, "hold")
        assert (seen["player"], seen["held"], seen["seq"]) == (0, [1, 4], 2)
        # a reconnection (a closed tab) and a resync show the hold chosen, not rolled yet
        with joined(client, table_id, token=token) as again:
            state = next_of(again, "state")["game"]
            assert state["slots"] == slots and state["held"] == [1, 4]
        ann.send_json({"type": "resync"})
        assert next_of(ann, "state")["game"]["held"] == [1, 4]
        ann.send_json({"type": "roll", "held": [1, 4], "id": "r2"})
        after = rolled(ann)
        assert (after["slots"][1], after["slots"][4]) == (slots[1], slots[4])
        assert after["held"] == [1, 4] and sorted(after["slots"]) == list(after["dice"])
        assert after["kept"] == "".join(sorted(slots[1] + slots[4]))
        assert rolled(watcher)["slots"] == after["slots"]
        with joined(client, table_id, token=token) as again:
            assert next_of(again, "state")["game"]["slots"] == after["slots"]


def test_a_hold_out_of_turn_or_out_of_range_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    with ann_and_bob(client) as (ann, other, _, _):
        ann.send_json({"type": "hold", "held": [0], "id": "early"})
        assert answer(ann, "early")["code"] == "not_rolled"
        ann.send_json({"type": "roll", "id": "r1"})
        slots = rolled(ann)["slots"]
        other.send_json({"type": "hold", "held": [0], "id": "theirs"})
        assert answer(other, "theirs")["code"] == "not_your_turn"
        for bad in ([5], [0, 0], [-1], [0, 1, 2, 3, 4, 0], [True], [1.0], ["1"], "01", 1):
            ann.send_json({"type": "hold", "held": bad, "id": f"bad{bad}"})
            assert answer(ann, f"bad{bad}")["type"] == "error"
        # held places and named dice must agree
        wrong = "".join(sorted(set("123456") - {slots[0]}))[:1]
        ann.send_json({"type": "roll", "held": [0], "keep": wrong, "id": "mismatch"})
        assert answer(ann, "mismatch")["code"] == "invalid_input"
        ann.send_json({"type": "resync"})
        state = next_of(ann, "state")["game"]
        assert state["slots"] == slots and state["held"] == [] and state["rolls_left"] == 2
