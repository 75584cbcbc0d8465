"""Finished offline games uploaded over HTTP (in-process, the records on SQLite): a good
upload is replayed, kept as the account's offline, unranked game and listed in its
history, export and statistics (never in the high scores); each refusal (a rule broken:
a score the dice do not give, a fourth roll, a turn out of order; a game not over;
garbage; too large; unknown rules; signed out; another site) is its documented error and
keeps nothing; the same upload again keeps nothing new, another game under its id is
``409 id_taken``, and the same upload sent twice at once keeps one game."""

from __future__ import annotations

import copy
import json
import random
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.test_accounts import SITE, browser, refusal, sign_up, site_client
from yahtzee import Game, RandomDice
from yahtzee.store import Store, high_scores
from yahtzee.store.queries import best_total
from yahtzee.web.limits import MAX_BODY_BYTES, MAX_OFFLINE_GAME_BYTES

URL = "/api/me/offline-games"
FINISHED_AT = "2026-05-01T12:00:00Z"


@pytest.fixture
def ann(db: str) -> Iterator[TestClient]:
    with site_client(db, "Ann") as c:
        yield c


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    return store


def played(seed: int = 1, names: list[str] | None = None) -> Game:
    """Ann against a level 3 bot (or ``names``): every turn rolls three times (nothing
    kept), then fills its first open box the dice allow."""
    game = Game(names or ["Ann", "Robo"], dice=RandomDice(seed))
    while not game.is_over:
        for _ in range(3):
            game.roll()
        game.score(game.placements()[0].category)
    return game


def upload_body(game: Game | None = None, **changes: Any) -> dict[str, Any]:
    game = game or played()
    body = {
        "id": str(uuid.uuid4()),
        "rules": "official",
        "players": [{"name": "Ann", "bot": None}, {"name": "Robo", "bot": "level3"}],
        "events": game.events,
        "finished_at": FINISHED_AT,
    }
    return {**body, **changes}


def kept_nothing(client: TestClient) -> None:
    assert store_of(client).count_events() == 0
    assert client.get("/api/me/history").json()["games"] == []
    assert client.get("/api/me/export").json()["games"] == []


def test_a_finished_offline_game_is_kept_as_the_accounts_unranked_game(ann: TestClient) -> None:
    game = played()
    answer = ann.post(URL, json=upload_body(game))
    assert answer.status_code == 201, answer.text
    kept = answer.json()
    assert kept["offline"] is True and kept["game"]
    (listed,) = ann.get("/api/me/history").json()["games"]
    assert (listed["id"], listed["offline"], listed["status"]) == (kept["game"], True, "finished")
    assert listed["players"] == ["Ann", "Robo"]
    assert listed["totals"] == [card.total for card in game.cards]
    assert listed["finished_at"].startswith("2026-05-01T12:00:00")
    (exported,) = ann.get("/api/me/export").json()["games"]
    assert exported["offline"] is True and exported["events"] == game.events
    assert [s["bot"] for s in exported["seats"]] == [None, "level3"]
    stats = ann.get("/api/me/stats").json()["stats"]
    assert (stats["games"], stats["offline_games"]) == (1, 1)
    store = store_of(ann)
    assert high_scores(store, "official", dice=None) == []  # never ranked
    assert best_total(store, "Ann", "official") is None


def test_a_game_of_entered_dice_ended_in_unix_time_is_kept(ann: TestClient) -> None:
    """A pass-and-play game of real dice; the account sat in the second seat."""
    game = Game(["Ann", "Bea"], entered=True)
    rng = random.Random(3)
    while not game.is_over:
        game.enter_dice("".join(str(rng.randint(1, 6)) for _ in range(5)))
        game.score(game.placements()[0].category)
    body = upload_body(game, finished_at=1_770_000_000, seat=1)
    body["players"] = [{"name": "Ann", "bot": None}, {"name": "Bea", "bot": None}]
    answer = ann.post(URL, json=body)
    assert answer.status_code == 201, answer.text
    (listed,) = ann.get("/api/me/history").json()["games"]
    assert (listed["dice"], listed["offline"]) == ("entered", True)
    assert listed["finished_at"].startswith("2026-02-02")


def with_event(game: Game, index: int, **changes: Any) -> list[dict[str, Any]]:
    events = copy.deepcopy(game.events)
    events[index] = {**events[index], **changes}
    return events


def test_a_score_the_dice_do_not_give_is_refused_saying_which_event(ann: TestClient) -> None:
    game = played()
    score = game.events[4]  # the first turn: three rolls (events 2-4), then its box
    assert score["type"] == "score"
    events = with_event(game, 4, points=score["points"] + 5)
    body = refusal(ann.post(URL, json=upload_body(events=events)), 400, "illegal_game")
    assert "Event 5" in body["message"] and "the dice give" in body["message"]
    kept_nothing(ann)


def test_a_fourth_roll_in_a_turn_is_refused(ann: TestClient) -> None:
    game = played()
    events = copy.deepcopy(game.events)
    events.insert(4, {"type": "roll", "player": 0, "keep": "", "dice": "66666"})
    body = refusal(ann.post(URL, json=upload_body(events=events)), 400, "illegal_game")
    assert "Event 5 is not legal here" in body["message"]
    assert "all three rolls" in body["message"]
    kept_nothing(ann)


def test_a_turn_out_of_order_is_refused(ann: TestClient) -> None:
    game = played()
    events = with_event(game, 5, player=0)  # Robo's first roll, said to be Ann's
    body = refusal(ann.post(URL, json=upload_body(events=events)), 400, "illegal_game")
    assert "Event 6" in body["message"] and "Robo's turn, not Ann's" in body["message"]
    kept_nothing(ann)


def test_a_start_that_is_not_the_games_is_refused(ann: TestClient) -> None:
    game = played()
    events = with_event(game, 0, players=["Robo", "Ann"])
    body = refusal(ann.post(URL, json=upload_body(events=events)), 400, "illegal_game")
    assert "event 1" in body["message"]
    kept_nothing(ann)


def test_a_game_not_over_is_refused(ann: TestClient) -> None:
    events = played().events[:-1]
    body = refusal(ann.post(URL, json=upload_body(events=events)), 400, "not_over")
    assert "round 13 of 13" in body["message"]
    kept_nothing(ann)


@pytest.mark.parametrize(
    "content", [b'{"id": "x", "events": [', b"[1, 2, 3]"], ids=["cut_json", "not_an_object"]
)
def test_garbage_is_refused(ann: TestClient, content: bytes) -> None:
    answer = ann.post(URL, content=content, headers={"content-type": "application/json"})
    refusal(answer, 400, "bad_request")
    kept_nothing(ann)


def test_eight_players_game_is_kept_and_a_larger_body_refused(ann: TestClient) -> None:
    """A game of eight is larger than any other body the server takes (16384 bytes); a body
    over the upload's own limit is ``413 too_large``."""
    names = [f"P{n}" for n in range(8)]
    game = played(names=names)
    body = upload_body(game, players=[{"name": n, "bot": None} for n in names])
    content = json.dumps(body).encode()
    assert MAX_BODY_BYTES < len(content) < MAX_OFFLINE_GAME_BYTES
    too_large = b'{"id": "' + b"x" * MAX_OFFLINE_GAME_BYTES + b'"}'
    json_type = {"content-type": "application/json"}
    answer = refusal(ann.post(URL, content=too_large, headers=json_type), 413, "too_large")
    assert str(MAX_OFFLINE_GAME_BYTES) in answer["message"]
    kept_nothing(ann)
    kept = ann.post(URL, content=content, headers=json_type)
    assert kept.status_code == 201, kept.text


def test_a_body_of_the_wrong_shape_is_refused(ann: TestClient) -> None:
    for body in (
        upload_body(id="not-a-uuid"),
        upload_body(players=[]),
        upload_body(players=[{"name": f"P{n}", "bot": None} for n in range(9)]),
        upload_body(events=[{"type": "roll", "dice": {"nested": 1}}]),
        upload_body(seat=1),  # Robo's seat is a bot's: not the account's
    ):
        refusal(ann.post(URL, json=body), 400, "bad_request")
    kept_nothing(ann)


def test_unknown_rules_are_refused(ann: TestClient) -> None:
    body = refusal(ann.post(URL, json=upload_body(rules="pinball")), 400, "unknown_rules")
    assert "Rule sets:" in body["message"]
    kept_nothing(ann)


def test_signed_out_and_cross_site_uploads_are_refused(ann: TestClient) -> None:
    guest = TestClient(ann.app, headers={"origin": SITE})
    refusal(guest.post(URL, json=upload_body()), 401, "signed_out")
    elsewhere = TestClient(ann.app, headers={"origin": "http://localhost"})  # not this site
    elsewhere.cookies.set("yz_session", ann.cookies.get("yz_session") or "")
    refusal(elsewhere.post(URL, json=upload_body()), 403, "cross_site")
    kept_nothing(ann)


def test_the_same_upload_again_keeps_nothing_new(ann: TestClient) -> None:
    body = upload_body()
    first = ann.post(URL, json=body)
    assert first.status_code == 201, first.text
    again = ann.post(URL, json={**body, "finished_at": "2026-05-02T08:00:00Z"})
    assert again.status_code == 200, again.text
    assert again.json() == first.json()
    assert len(ann.get("/api/me/history").json()["games"]) == 1
    other = browser(ann)
    sign_up(other, "Bob")  # another account's upload of the same id is its own
    theirs = other.post(URL, json=body)
    assert theirs.status_code == 201 and theirs.json()["game"] != first.json()["game"]


def test_another_game_under_a_kept_id_is_refused(ann: TestClient) -> None:
    body = upload_body()
    assert ann.post(URL, json=body).status_code == 201
    events_before = store_of(ann).count_events()
    other = upload_body(played(seed=2), id=body["id"])
    refusal(ann.post(URL, json=other), 409, "id_taken")
    assert store_of(ann).count_events() == events_before
    assert len(ann.get("/api/me/history").json()["games"]) == 1


def test_the_same_upload_sent_twice_at_once_keeps_one_game(ann: TestClient) -> None:
    body = upload_body()
    together = threading.Barrier(2, timeout=10)

    def send() -> Any:
        together.wait()
        return ann.post(URL, json=body)

    with ThreadPoolExecutor(2) as pool:
        answers = [f.result(timeout=60) for f in [pool.submit(send) for _ in range(2)]]
    assert sorted(a.status_code for a in answers) == [200, 201], [a.text for a in answers]
    assert answers[0].json() == answers[1].json()
    assert len(ann.get("/api/me/history").json()["games"]) == 1
