"""A table of real dice over a real server: created with ``"dice": "entered"``, its
players enter the dice showing and fill boxes (or write points), and every bad input gets
its documented error code and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest

from tests.live_server import running
from tests.web.helpers import answer, next_of, seated


@pytest.fixture
def base(db: str) -> Iterator[str]:
    with running(db) as found:
        yield found


def _post(base: str, path: str, body: Any, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        return http.post(path, json=body, headers=headers)


def _entered_table(base: str, players: int = 2) -> list[dict[str, Any]]:
    """Ann hosts a table of real dice; Bob (and Cy) join; started. Each seat's answer."""
    created = _post(
        base, "/api/tables",
        {"host": "Ann", "seats": [{"kind": "human"}] * (players - 1), "dice": "entered"},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    host = created.json()
    assert host["table"]["dice"] == "entered"
    seats = [host]
    for name in ["Bob", "Cy"][: players - 1]:
        seats.append(_post(base, f"/api/join/{host['invite']}", {"name": name}).json())
    started = _post(base, f"/api/tables/{host['table']['id']}/start", {}, host["token"])
    assert started.status_code == 200, started.text
    return seats


@contextmanager
def _sockets(base: str, seats: list[dict[str, Any]]) -> Iterator[list[Any]]:
    table = seats[0]["table"]["id"]
    with ExitStack() as stack:
        sockets = [stack.enter_context(seated(base, table, token=s["token"])) for s in seats]
        for ws in sockets:  # each connection's first state
            assert next_of(ws, "state")["table"]["dice"] == "entered"
        yield sockets


def _state(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "resync"})
    game: dict[str, Any] = next_of(ws, "state")["game"]
    return game


def _refused(ws: Any, intent: dict[str, Any], code: str) -> str:
    """The intent is refused with ``code`` and the game is as it was."""
    before = _state(ws)
    key = f"k{id(intent)}-{code}"
    got = answer(ws, key) if ws.send_json({"v": 1, **intent, "id": key}) is None else None
    assert got is not None and got["type"] == "error", got
    assert got["code"] == code, got
    assert got["message"].endswith(".") and "Traceback" not in got["message"]
    assert _state(ws) == before
    return str(got["message"])


def _ok(ws: Any, intent: dict[str, Any], key: str) -> None:
    ws.send_json({"v": 1, **intent, "id": key})
    got = answer(ws, key)
    assert got["type"] == "ack", got


def test_a_table_of_real_dice_says_so_and_its_game_takes_entered_dice(base: str) -> None:
    seats = _entered_table(base)
    with _sockets(base, seats) as (ann, bob):
        assert _state(ann)["entered"] is True
        _ok(ann, {"type": "dice", "dice": "33356", "roll": 1}, "d1")
        game = _state(ann)
        assert game["dice"] == "33356" and game["rolls_left"] == 2
        threes = next(p for p in game["placements"] if p["box"] == "threes")
        assert threes["points"] == 9
        _ok(ann, {"type": "dice", "dice": "33336"}, "d2")  # a correction, the last roll
        assert _state(ann)["dice"] == "33336"
        _ok(ann, {"type": "score", "box": "threes"}, "s1")
        game = _state(ann)
        assert game["cards"][0]["boxes"]["threes"] == 12 and game["current"] == 1
        assert game["undo"] == 0
        _ok(ann, {"type": "undo"}, "u1")  # until Bob acts, Ann may take it back
        game = _state(ann)
        assert game["current"] == 0 and game["cards"][0]["boxes"]["threes"] is None
        _ok(ann, {"type": "write", "category": "fours", "points": 12}, "w1")
        game = _state(bob)
        assert game["cards"][0]["boxes"]["fours"] == 12 and game["current"] == 1
        _ok(bob, {"type": "dice", "dice": "22222"}, "b1")
        assert _state(ann)["undo"] is None  # Bob acted: Ann's entry stays
        _refused(ann, {"type": "undo"}, "no_undo")


@pytest.mark.parametrize(
    ("intent", "code"),
    [
        ({"type": "dice", "dice": "33357"}, "bad_dice"),
        ({"type": "dice", "dice": "3335"}, "bad_dice"),
        ({"type": "dice", "dice": "333566"}, "bad_dice"),
        ({"type": "dice", "dice": ""}, "bad_dice"),
        ({"type": "dice", "dice": "33356", "roll": 4}, "bad_roll"),
        ({"type": "dice", "dice": "33356", "roll": "2"}, "bad_message"),
        ({"type": "dice", "dice": 33356}, "bad_message"),
        ({"type": "write", "category": "fours", "points": 7}, "points_not_allowed"),
        ({"type": "write", "category": "full_house", "points": 20}, "points_not_allowed"),
        ({"type": "write", "category": "fours", "points": 12.0}, "bad_message"),
        ({"type": "write", "category": "sevens", "points": 0}, "invalid_input"),
        ({"type": "roll"}, "dice_entered"),
        ({"type": "hold", "held": [0]}, "dice_entered"),
        ({"type": "undo"}, "no_undo"),
    ],
)
def test_each_bad_entry_gets_its_code_and_changes_nothing(
    base: str, intent: dict[str, Any], code: str
) -> None:
    seats = _entered_table(base)
    with _sockets(base, seats) as (ann, _):
        message = _refused(ann, intent, code)
        if code == "points_not_allowed":
            assert "points under the official rules" in message


def test_a_filled_box_and_out_of_turn_entries_are_refused(base: str) -> None:
    seats = _entered_table(base)
    with _sockets(base, seats) as (ann, bob):
        _refused(bob, {"type": "dice", "dice": "12345"}, "not_your_turn")
        _refused(bob, {"type": "write", "category": "chance", "points": 20}, "not_your_turn")
        _ok(ann, {"type": "write", "category": "chance", "points": 20}, "a1")
        _ok(bob, {"type": "write", "category": "chance", "points": 5}, "b1")
        _refused(ann, {"type": "write", "category": "chance", "points": 30}, "box_filled")
        _ok(ann, {"type": "dice", "dice": "12345"}, "a2")
        _refused(ann, {"type": "score", "box": "chance"}, "box_filled")


def test_entering_dice_at_a_rolled_table_is_refused(base: str) -> None:
    host = _post(base, "/api/tables", {"host": "Ann"}).json()
    assert host["table"]["dice"] == "rolled"
    assert _post(base, f"/api/tables/{host['table']['id']}/start", {}, host["token"]).is_success
    with seated(base, host["table"]["id"], token=host["token"]) as ann:
        assert next_of(ann, "state")["game"]["entered"] is False
        _refused(ann, {"type": "dice", "dice": "33356"}, "dice_rolled")
        _refused(ann, {"type": "write", "category": "fours", "points": 12}, "dice_rolled")


def test_an_intent_with_an_id_is_applied_once(base: str) -> None:
    seats = _entered_table(base)
    with _sockets(base, seats) as (ann, _):
        _ok(ann, {"type": "write", "category": "fours", "points": 12}, "same")
        _ok(ann, {"type": "write", "category": "fours", "points": 12}, "same")  # a resend
        game = _state(ann)
        assert game["current"] == 1 and game["cards"][0]["boxes"]["fours"] == 12


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"seats": [{"kind": "bot", "level": 3}]}, "bots_need_rolled_dice"),
        ({"seats": [{"kind": "human"}], "turn_timer": 60}, "timer_needs_rolled_dice"),
        ({"dice": "real"}, "bad_request"),
        ({"dice": True}, "bad_request"),
    ],
)
def test_a_table_of_real_dice_refuses_bots_and_a_timer(
    base: str, body: dict[str, Any], code: str
) -> None:
    answer = _post(base, "/api/tables", {"host": "Ann", "dice": "entered", **body})
    assert answer.status_code in (400, 409), answer.text
    assert answer.json()["code"] == code


def test_no_seat_of_a_real_dice_table_goes_to_a_bot(base: str) -> None:
    created = _post(
        base, "/api/tables", {"host": "Ann", "seats": [{"kind": "human"}], "dice": "entered"}
    ).json()
    table_id, token = created["table"]["id"], created["token"]
    refused = _post(base, f"/api/tables/{table_id}/seats/1/bot", {"level": 3}, token)
    assert refused.status_code == 409 and refused.json()["code"] == "bots_need_rolled_dice"
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        seat = http.get(f"/api/tables/{table_id}").json()["seats"][1]
    assert seat["open"] and seat["bot"] is None


def test_a_rematch_of_a_real_dice_table_takes_real_dice_too(base: str) -> None:
    seats = _entered_table(base, players=1)
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
             "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
             "chance"]  # fmt: skip
    with _sockets(base, seats) as (ann,):
        for n, box in enumerate(boxes):
            points = 5 if box == "chance" else 0
            _ok(ann, {"type": "write", "category": box, "points": points}, f"w{n}")
        assert _state(ann)["phase"] == "over"
    table = seats[0]["table"]["id"]
    again = _post(base, f"/api/tables/{table}/rematch", {}, seats[0]["token"])
    assert again.status_code == 200, again.text
    assert again.json()["table"]["dice"] == "entered"
    assert again.json()["table"]["sitting"] == table


def test_a_sitting_in_columns_over_rest(base: str) -> None:
    seats = _entered_table(base, players=2)
    table = seats[0]["table"]["id"]
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        missing = http.get(f"/api/sittings/{table}/columns")
        assert missing.status_code == 404 and missing.json()["code"] == "no_sitting"
    with _sockets(base, seats) as sockets:
        for n in range(13 * 2):
            box = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
                   "four_of_a_kind", "full_house", "small_straight", "large_straight",
                   "yahtzee", "chance"][n // 2]  # fmt: skip
            points = {"chance": 10 + n % 2, "full_house": 25, "ones": 1}.get(box, 0)
            _ok(sockets[n % 2], {"type": "write", "category": box, "points": points}, f"w{n}")
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        columns = http.get(f"/api/sittings/{table}/columns").json()
    assert columns["players"] == ["Ann", "Bob"] and columns["rules"] == "official"
    (game,) = columns["games"]
    assert game["totals"] == [36, 37] and game["winners"] == [1]
    assert [card["boxes"]["chance"] for card in game["cards"]] == [10, 11]
    assert columns["running"] == [[36, 37]]
