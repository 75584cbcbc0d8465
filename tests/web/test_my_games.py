"""My games over HTTP (in-process, the records on SQLite): an account's tables across its
devices in their order (its turn first, the nearest deadline first; the others' turns;
those waiting to start; the finished ones), an invitation by account name and sitting
down at one's own seat from another device, friends, statistics and history; each
refusal a documented error that changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.waiting import wait_until
from tests.web.helpers import joined, next_of, play_out
from tests.web.test_accounts import SITE, browser, refusal, sign_up, site_client
from yahtzee.store import tables as records
from yahtzee.web.app import create_app

DAY = 86_400
HOUR = 3_600
RECORDED_S = 60.0  # a hang detector: a busy CI worker once took over 10 s


@pytest.fixture
def ann(db: str) -> Iterator[TestClient]:
    with site_client(db, "Ann") as c:
        yield c


@pytest.fixture
def bob(ann: TestClient) -> TestClient:
    other = browser(ann)
    sign_up(other, "Bob")
    return other


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def table(client: TestClient, timer: int | None = DAY, seats: int = 1) -> dict[str, Any]:
    body = {"host": "Ann", "seats": [{"kind": "human"}] * seats, "turn_timer": timer}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def invite(host: TestClient, made: dict[str, Any], name: str) -> Any:
    return host.post(
        f"/api/tables/{made['table']['id']}/invite", json={"account": name},
        headers=bearer(made["token"]),
    )  # fmt: skip


def sit(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/seat")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def start(client: TestClient, made: dict[str, Any]) -> None:
    table_id = made["table"]["id"]
    response = client.post(f"/api/tables/{table_id}/start", headers=bearer(made["token"]))
    assert response.status_code == 200, response.text


def my_games(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/me/games")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def with_bob(ann: TestClient, bob: TestClient, timer: int | None = DAY) -> dict[str, Any]:
    """A table of Ann's with a seat kept for Bob, who sits down there; started."""
    made = table(ann, timer)
    assert invite(ann, made, "bob").status_code == 200  # (any look-alike spelling)
    sit(bob, made["table"]["id"])
    start(ann, made)
    return made


def a_turn(client: TestClient, table_id: str, token: str) -> None:
    """The seat of ``token`` rolls and fills its first box (its turn passes)."""
    with joined(client, table_id, token=token) as ws:
        game = next_of(ws, "state")["game"]
        ws.send_json({"v": 1, "type": "roll", "id": "r"})
        game = next_of(ws, "event")["game"]
        ws.send_json({"v": 1, "type": "score", "box": game["placements"][0]["box"], "id": "s"})
        assert next_of(ws, "event")["event"]["type"] == "score"


def test_an_invited_account_finds_the_seat_kept_for_it_and_sits_down(
    ann: TestClient, bob: TestClient
) -> None:
    made = table(ann)
    table_id = made["table"]["id"]
    answer = invite(ann, made, "Bob")
    assert answer.status_code == 200, answer.text
    assert answer.json()["seats"][1]["reserved"] is True
    (kept,) = my_games(bob)["games"]
    assert (kept["table"], kept["group"], kept["kept"], kept["seat"]) == (
        table_id,
        "lobby",
        True,
        1,
    )
    sat = sit(bob, table_id)
    assert sat["seat"] == 1 and sat["token"]
    assert my_games(bob)["games"][0]["kept"] is False
    start(ann, made)
    mine, theirs = my_games(ann), my_games(bob)
    assert (mine["your_turn"], theirs["your_turn"]) == (1, 0)
    assert mine["games"][0]["group"] == "your_turn" and mine["games"][0]["deadline"] is not None
    assert theirs["games"][0]["group"] == "their_turn"
    a_turn(ann, table_id, made["token"])
    assert my_games(ann)["games"][0]["group"] == "their_turn"
    assert my_games(bob)["games"][0]["group"] == "your_turn"  # (to_move, no replay)


def test_my_games_lists_my_turn_first_by_deadline_then_theirs_then_lobby_then_finished(
    ann: TestClient, bob: TestClient
) -> None:
    finished = with_bob(ann, bob)
    store = ann.app.state.lobby.store  # type: ignore[attr-defined]
    game_id = records.load_table(store, finished["table"]["id"]).game_id  # type: ignore[union-attr]
    records.set_table_status(store, finished["table"]["id"], records.FINISHED, game_id)
    waiting = table(ann)
    theirs = with_bob(ann, bob)
    a_turn(ann, theirs["table"]["id"], theirs["token"])
    later = with_bob(ann, bob, DAY)
    sooner = with_bob(ann, bob, HOUR)
    found = my_games(ann)
    order = [(g["table"], g["group"]) for g in found["games"]]
    assert order == [
        (sooner["table"]["id"], "your_turn"),
        (later["table"]["id"], "your_turn"),
        (theirs["table"]["id"], "their_turn"),
        (waiting["table"]["id"], "lobby"),
        (finished["table"]["id"], "finished"),
    ]
    assert found["your_turn"] == 2 and found["you"] == "Ann" and found["more"] is False
    names = [s["account"] for s in found["games"][0]["seats"]]
    assert names == ["Ann", "Bob"]


def test_friends_are_the_accounts_played_with_the_last_first(
    ann: TestClient, bob: TestClient
) -> None:
    assert ann.get("/api/me/friends").json() == {"friends": []}
    cy = browser(ann)
    sign_up(cy, "Cy")
    with_bob(ann, bob)
    made = table(ann)
    invite(ann, made, "Cy")
    sit(cy, made["table"]["id"])
    assert [f["name"] for f in ann.get("/api/me/friends").json()["friends"]] == ["Bob"]
    start(ann, made)  # (a table that never started is nobody's game together)
    friends = ann.get("/api/me/friends").json()["friends"]
    assert [(f["name"], f["games"]) for f in friends] == [("Cy", 1), ("Bob", 1)]
    assert [f["name"] for f in bob.get("/api/me/friends").json()["friends"]] == ["Ann"]


def test_the_seat_moves_to_the_device_that_sits_down_last(ann: TestClient) -> None:
    made = table(ann, seats=0)
    table_id = made["table"]["id"]
    start(ann, made)
    phone = browser(ann)
    phone.cookies = ann.cookies  # the same account, signed in on another device
    sat = sit(phone, table_id)
    assert sat["seat"] == 0 and sat["token"] != made["token"]
    with joined(phone, table_id, token=sat["token"]) as ws:
        assert next_of(ws, "state")["you"]["seat"] == 0
    with (
        pytest.raises(WebSocketDisconnect) as gone,
        joined(ann, table_id, token=made["token"]) as ws,
    ):
        next_of(ws, "state")  # the old token acts no more
    assert gone.value.code == 4401


def test_signed_out_requests_are_refused(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0), headers={"origin": SITE}) as guest:
        for path in ("/api/me/games", "/api/me/friends", "/api/me/stats", "/api/me/history"):
            refusal(guest.get(path), 401, "signed_out")
        made = table(guest)
        refusal(guest.post(f"/api/tables/{made['table']['id']}/seat"), 401, "signed_out")


def test_invitations_and_seats_refused_change_nothing(ann: TestClient, bob: TestClient) -> None:
    made = table(ann)
    table_id = made["table"]["id"]
    refusal(invite(ann, made, "Nobody"), 404, "no_account")
    refusal(bob.post(f"/api/tables/{table_id}/invite", json={"account": "Bob"}), 403, "not_host")
    refusal(bob.post(f"/api/tables/{table_id}/seat"), 403, "not_your_table")
    refusal(invite(ann, made, "Ann"), 409, "seated")
    assert invite(ann, made, "Bob").status_code == 200
    refusal(invite(ann, made, "Bob"), 409, "seated")
    refusal(bob.post("/api/tables/no-such-table/seat"), 404, "no_table")
    refusal(ann.post(f"/api/tables/{table_id}/invite", json={"account": ""}), 400, "bad_request")
    assert [s["name"] for s in ann.get(f"/api/tables/{table_id}").json()["seats"]] == ["Ann", "Bob"]


def test_history_pages_and_stats_are_the_accounts_own(ann: TestClient, bob: TestClient) -> None:
    assert ann.get("/api/me/stats").json() == {"stats": None}
    made = [with_bob(ann, bob) for _ in range(3)]
    first = ann.get("/api/me/history", params={"limit": 2}).json()
    assert len(first["games"]) == 2 and first["next"]
    rest = ann.get("/api/me/history", params={"limit": 2, "before": first["next"]}).json()
    assert len(rest["games"]) == 1 and rest["next"] is None
    seen = {g["id"] for g in first["games"] + rest["games"]}
    store = ann.app.state.lobby.store  # type: ignore[attr-defined]
    games = {records.load_table(store, m["table"]["id"]).game_id for m in made}  # type: ignore[union-attr]
    assert seen == games
    cy = browser(ann)
    sign_up(cy, "Cy")
    assert cy.get("/api/me/history").json() == {"games": [], "next": None}
    for bad in ("yesterday", "1.", "99999999999999999999.x"):
        refusal(ann.get("/api/me/history", params={"before": bad}), 400, "bad_cursor")
    refusal(ann.get("/api/me/history", params={"limit": 0}), 400, "bad_request")
    refusal(ann.get("/api/me/history", params={"limit": 101}), 400, "bad_request")


def test_stats_and_export_are_of_the_accounts_finished_games(
    ann: TestClient, bob: TestClient
) -> None:
    made = table(ann, timer=None, seats=0)
    table_id = made["table"]["id"]
    start(ann, made)
    with joined(ann, table_id, token=made["token"]) as ws:
        final = play_out({0: ws}, ws, next_of(ws, "state")["game"])
    total = final["cards"][0]["total"]

    def finished() -> bool:  # (its table's end is recorded just after the last move)
        return bool(my_games(ann)["games"][0]["group"] == "finished")

    wait_until(finished, timeout=RECORDED_S, what="the table recorded as finished")
    stats = ann.get("/api/me/stats").json()["stats"]
    assert (stats["player"], stats["games"], stats["best"], stats["solo_games"]) == (
        "Ann",
        1,
        total,
        1,
    )
    assert bob.get("/api/me/stats").json() == {"stats": None}
    export = ann.get("/api/me/export").json()
    assert (export["format"], export["version"]) == ("yahtzee-records", 1)
    (game,) = export["games"]
    assert game["status"] == "finished" and game["seats"][0]["card"]["total"] == total
    assert bob.get("/api/me/export").json()["games"] == []
    (done,) = my_games(ann)["games"]
    assert (done["group"], done["seats"][0]["total"], done["seats"][0]["place"]) == (
        "finished",
        total,
        1,
    )
