"""The daily game online, through the REST calls and the WebSocket as the page uses them."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.helpers import answer, joined, next_of, receive_json
from yahtzee.service import daily
from yahtzee.store import Store
from yahtzee.store import daily as records


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _start(client: TestClient, name: str, token: str | None = None) -> Any:
    return client.post("/api/daily", json={"name": name}, headers=_auth(token) if token else {})


def _play(client: TestClient, started: dict[str, Any], *, last_box: bool = False) -> Any:
    """Play the daily game through: roll once, then the first (or last) legal box."""
    table_id = started["table"]["id"]
    with joined(client, table_id, token=started["token"]) as ws:
        game = next_of(ws, "state")["game"]
        assert game["players"] == [started["table"]["seats"][0]["name"]]
        for n in range(100):
            if game["dice"] is None:
                ws.send_json({"v": 1, "type": "roll", "id": f"m{n}"})
            else:
                box = game["placements"][-1 if last_box else 0]["box"]
                ws.send_json({"v": 1, "type": "score", "box": box, "id": f"m{n}"})
            message = next_of(ws, "event", "error")
            assert message["type"] == "event", message
            game = message["game"]
            if game["phase"] == "over":
                assert answer(ws, f"m{n}")["type"] == "ack"  # the result recorded by then
                return game
        raise AssertionError("the game did not end")


def test_the_day_shows_its_commitments_ahead(client: TestClient, db: str) -> None:
    day = client.get("/api/daily").json()
    today = daily.today()
    assert day["day"] == today.isoformat()
    assert day["yesterday"] == (today - timedelta(days=1)).isoformat()
    assert len(day["commitment"]) == len(day["tomorrow"]) == 64
    assert day["commitment"] != day["tomorrow"] and day["yesterday_seed"] is None
    with Store(db) as store:
        assert records.seed_of_day(store, today).commitment == day["commitment"]
        assert records.seed_of_day(store, today + timedelta(days=1)).commitment == day["tomorrow"]


def test_start_resume_second_attempt_and_result(client: TestClient, db: str) -> None:
    committed = client.get("/api/daily").json()["commitment"]
    first = _start(client, "Ann")
    assert first.status_code == 200, first.text
    started = first.json()
    table = started["table"]
    assert table["daily"] == started["day"] == daily.today().isoformat()
    assert table["hints_allowed"] is False and len(table["seats"]) == 1
    assert table["commitment"] == committed  # the day's dice, everyone's
    # an unfinished attempt goes on with its token; without it, refused
    again = _start(client, "Ann", started["token"])
    assert again.status_code == 200 and again.json()["table"]["id"] == table["id"]
    stranger = _start(client, "Ann")  # the same name, without the token
    assert stranger.status_code == 409 and stranger.json()["code"] == "daily_played"
    early = client.get(f"/api/daily/tables/{table['id']}/result", headers=_auth(started["token"]))
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    final = _play(client, started)
    total = final["cards"][0]["total"]
    result = client.get(f"/api/daily/tables/{table['id']}/result", headers=_auth(started["token"]))
    assert result.status_code == 200, result.text
    found = result.json()
    assert found["score"] == total and found["loss"] >= 0 and found["best"] >= total - 0
    assert found["streak"] == 1 and [d["day"] for d in found["days"]] == [found["day"]]
    assert found["share"].startswith(f"Yahtzee daily {found['day']}: {total} points")
    assert [e["name"] for e in found["leaderboard"]["by_score"]] == ["Ann"]
    # a finished attempt is final, token or not
    for token in (started["token"], None):
        refused = _start(client, "Ann", token)
        assert refused.status_code == 409 and refused.json()["code"] == "daily_played"
    # the seed stays secret until the day is over, even now the game is over
    dice = client.get(f"/api/games/{table['game_id']}/dice").json()
    assert dice["seed"] is None and dice["commitment"] == committed
    assert dice["draw"] == "duplicate"  # the daily game: everyone the same dice
    assert any('"|r|n|i"' in step for step in dice["steps"])
    with Store(db) as store:
        (attempt,) = records.results_of_day(store, daily.today())
        assert attempt.score == total and attempt.game_id == table["game_id"]


def test_a_played_attempt_is_final_under_every_spelling_of_the_name(client: TestClient) -> None:
    """Capitals, a fullwidth letter and a Cyrillic look-alike are the same player: once
    Vera1 has played, each is refused (``daily_played``), token or not; the day's
    leaderboard and the player's days show the one game, under the name as first typed."""
    started = _start(client, "Vera1").json()
    _play(client, started)
    for name in ("VERA1", "vera1", "\uff36era1", "V\u0435ra1"):
        for token in (started["token"], None):
            refused = _start(client, name, token)
            assert refused.status_code == 409 and refused.json()["code"] == "daily_played"
            assert f"{name} (as Vera1) has played" in refused.json()["message"]
    board = client.get(f"/api/daily/{daily.today().isoformat()}/leaderboard").json()
    assert [e["name"] for e in board["by_score"]] == ["Vera1"]
    table_id = started["table"]["id"]
    result = client.get(f"/api/daily/tables/{table_id}/result", headers=_auth(started["token"]))
    assert [d["day"] for d in result.json()["days"]] == [started["day"]]


def test_the_leaderboard_ranks_by_score_and_by_skill(client: TestClient) -> None:
    ann, bob, cy = (_start(client, name).json() for name in ("Ann", "Bob", "Cy"))
    first = _play(client, ann)
    same = _play(client, cy)  # the same decisions: the same dice, the same score
    assert same["cards"][0]["boxes"] == first["cards"][0]["boxes"]
    _play(client, bob, last_box=True)
    board = client.get(f"/api/daily/{daily.today().isoformat()}/leaderboard").json()
    scores = [e["score"] for e in board["by_score"]]
    losses = [e["loss"] for e in board["by_skill"]]
    assert len(scores) == 3 and scores == sorted(scores, reverse=True)
    assert losses == sorted(losses)
    assert board["best"] >= max(scores)
    ann_cy = [e for e in board["by_score"] if e["name"] in ("Ann", "Cy")]
    assert ann_cy[0]["place"] == ann_cy[1]["place"]  # a tie shares its place
    assert board["by_skill"][0]["place"] == board["by_score"][0]["place"] == 1
    # each ranking breaks ties by the other measure
    score_keys = [(-e["score"], e["loss"]) for e in board["by_score"]]
    skill_keys = [(e["loss"], -e["score"]) for e in board["by_skill"]]
    assert score_keys == sorted(score_keys) and skill_keys == sorted(skill_keys)


def test_another_players_daily_game_is_hidden_until_the_day_is_over(client: TestClient) -> None:
    started = _start(client, "Ann").json()
    table_id = started["table"]["id"]
    for path in (f"/api/tables/{table_id}", f"/api/sittings/{table_id}"):
        hidden = client.get(path)
        assert hidden.status_code == 403 and hidden.json()["code"] == "daily_hidden"
    assert client.get(f"/api/tables/{table_id}", headers=_auth(started["token"])).status_code == 200
    other = client.get(f"/api/daily/tables/{table_id}/result")
    assert other.status_code == 403 and other.json()["code"] == "not_player"
    lobby: Any = client.app.state.lobby  # type: ignore[attr-defined]
    key = lobby.tables[table_id].spectator_token  # never handed out; refused all the same
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        joined(client, table_id, watch=key) as ws,
    ):
        receive_json(ws)
    assert closed.value.code == 4401


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Ann", "score": 375},  # a result is never taken from a client
        {"name": 5},
        {"name": ""},
        {"name": "Ann", "day": "2020-01-01"},
        [],
    ],
)
def test_bad_input_is_refused_and_changes_nothing(client: TestClient, db: str, body: Any) -> None:
    answer = client.post("/api/daily", json=body)
    assert answer.status_code == 400 and set(answer.json()) == {"code", "message"}
    with Store(db) as store:
        assert records.results_of_day(store, daily.today()) == []


def test_a_leaderboard_for_a_day_to_come_or_no_day_is_refused(client: TestClient, db: str) -> None:
    tomorrow = (daily.today() + timedelta(days=1)).isoformat()
    ahead = client.get(f"/api/daily/{tomorrow}/leaderboard")
    assert ahead.status_code == 409 and ahead.json()["code"] == "day_not_started"
    long_ago = client.get("/api/daily/2001-01-01/leaderboard")
    assert long_ago.status_code == 404 and long_ago.json()["code"] == "no_day"
    with Store(db) as store:  # nothing made for it
        assert records.revealed_seed(store, date(2001, 1, 1), daily.today()) is None
    bad = client.get("/api/daily/yesterday/leaderboard")
    assert bad.status_code == 400 and set(bad.json()) == {"code", "message"}
    assert date.fromisoformat(client.get("/api/daily").json()["day"]) == daily.today()


def test_an_attempt_goes_on_after_a_restart_with_no_hints_nor_undo(db: str) -> None:
    from yahtzee.web.app import create_app

    with TestClient(create_app(db, bot_delay=0, rate=1e6)) as before:
        started = _start(before, "Ann").json()
        with joined(before, started["table"]["id"], token=started["token"]) as ws:
            next_of(ws, "state")
            ws.send_json({"v": 1, "type": "roll", "id": "r"})
            box = next_of(ws, "event")["game"]["placements"][0]["box"]
            ws.send_json({"v": 1, "type": "score", "box": box, "id": "s"})
            assert answer(ws, "s")["type"] == "ack"
    with TestClient(create_app(db, bot_delay=0, rate=1e6)) as after:
        again = _start(after, "Ann", started["token"])
        assert again.status_code == 200 and again.json()["table"]["id"] == started["table"]["id"]
        with joined(after, started["table"]["id"], token=started["token"]) as ws:
            game = next_of(ws, "state")["game"]
            assert game["round"] == 2 and game["undo"] is None
            ws.send_json({"v": 1, "type": "undo", "id": "u"})
            assert answer(ws, "u")["type"] == "error"
            ws.send_json({"v": 1, "type": "hint", "id": "h"})
            assert answer(ws, "h")["type"] == "error"


def test_one_attempt_when_two_servers_are_asked_at_once(db: str) -> None:
    """Two server processes on the same records, asked for Ann's daily game at the same
    moment: one attempt, the other refused ``daily_played``."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from yahtzee.web.app import create_app

    with (
        TestClient(create_app(db, bot_delay=0, rate=1e6)) as one,
        TestClient(create_app(db, bot_delay=0, rate=1e6)) as two,
    ):
        one.get("/api/daily")  # the day's seed made first (as the page does)
        together = Barrier(2, timeout=10)

        def ask(client: TestClient) -> Any:
            together.wait()
            return _start(client, "Ann")

        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(ask, (one, two)))
    assert sorted(a.status_code for a in answers) == [200, 409]
    (refused,) = [a for a in answers if a.status_code == 409]
    assert refused.json()["code"] == "daily_played"
    with Store(db) as store:
        assert len(records.results_of_day(store, daily.today())) == 1
