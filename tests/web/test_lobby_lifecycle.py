"""Tables end: a lobby that never starts expires, its host can cancel it, a finished game's
record is never rewritten (and its table is still there after a restart), and the quota
per client counts only tables that are still open, after a restart too; daily attempts
count in it, and one left unfinished expires when its day is over."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from datetime import time as dtime
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update

from tests.web.conftest import new_table
from yahtzee.core import Keep, Score
from yahtzee.service import LOBBY_IDLE_S, GameSession, LiveGame, Lobby, Table, daily
from yahtzee.store import Store
from yahtzee.store import daily as daily_records
from yahtzee.store import tables as tables_records
from yahtzee.store.schema import games, tables
from yahtzee.web.app import create_app


class Clock:
    """A clock the test moves on."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def lobby_of(client: TestClient) -> Lobby:
    found: Lobby = cast(Any, client.app).state.lobby
    return found


def session_of(client: TestClient, table_id: str) -> GameSession:
    session = lobby_of(client).tables[table_id].session
    assert session is not None
    return session


def open_client(db: str, **options: Any) -> TestClient:
    return TestClient(create_app(db, bot_delay=0, rate=1e6, **options))


@pytest.fixture
def quota2(db: str) -> Iterator[TestClient]:
    with open_client(db, max_tables_per_client=2) as client:
        yield client


def auth(player: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def create(client: TestClient) -> Any:
    return client.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})


def statuses(db: str) -> dict[str, str]:
    with Store(db) as store, store.engine.connect() as c:
        return {r.id: r.status for r in c.execute(select(tables.c.id, tables.c.status))}


# Cancelling ---------------------------------------------------------------------------


def test_the_host_cancels_a_table_that_has_not_started(client: TestClient, db: str) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    refused = client.delete(f"/api/tables/{table_id}", headers=auth(bob))
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    assert client.delete(f"/api/tables/{table_id}").status_code == 403  # no token

    cancelled = client.delete(f"/api/tables/{table_id}", headers=auth(host))
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    gone = client.get(f"/api/tables/{table_id}")
    assert gone.status_code == 404 and gone.json()["code"] == "no_table"
    late = client.post(f"/api/join/{host['invite']}", json={"name": "Cy"})
    assert late.status_code == 404
    again = client.delete(f"/api/tables/{table_id}", headers=auth(host))
    assert again.status_code == 404
    assert statuses(db)[table_id] == "cancelled"


def test_a_started_table_cannot_be_cancelled(client: TestClient) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200
    refused = client.delete(f"/api/tables/{table_id}", headers=auth(host))
    assert refused.status_code == 409 and refused.json()["code"] == "started"


# Expiring and the quota -----------------------------------------------------------------


def test_cancelled_and_expired_tables_leave_the_quota(quota2: TestClient, db: str) -> None:
    client = quota2
    clock = Clock()
    lobby_of(client).clock = clock
    first, second = create(client).json(), create(client).json()
    full = create(client)
    assert full.status_code == 403 and full.json()["code"] == "too_many_tables"

    assert client.delete(f"/api/tables/{first['table']['id']}", headers=auth(first)).is_success
    third = create(client)
    assert third.status_code == 201

    # a join is a change: the second table waits 30 minutes from it
    clock.now += LOBBY_IDLE_S - 60
    bob = client.post(f"/api/join/{second['invite']}", json={"name": "Bob"})
    assert bob.status_code == 200
    clock.now += 120  # the third table has waited 31 minutes, the second 2
    assert client.get(f"/api/tables/{third.json()['table']['id']}").status_code == 404
    assert client.get(f"/api/tables/{second['table']['id']}").status_code == 200
    assert create(client).status_code == 201  # the expired one no longer counts
    assert create(client).status_code == 403

    assert client.portal is not None
    expired = client.portal.call(lobby_of(client).expire_idle)
    assert [t.id for t in expired] == [third.json()["table"]["id"]]
    assert statuses(db)[third.json()["table"]["id"]] == "expired"


def test_the_quota_counts_only_open_tables_after_a_restart(db: str) -> None:
    with open_client(db, max_tables_per_client=2) as client:
        first, second = create(client).json(), create(client).json()
        assert client.delete(f"/api/tables/{first['table']['id']}", headers=auth(first)).is_success
    with open_client(db, max_tables_per_client=2) as client:  # restarted
        assert create(client).status_code == 201  # the cancelled table does not count
        assert create(client).json()["code"] == "too_many_tables"
        assert client.get(f"/api/tables/{second['table']['id']}").status_code == 200
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    with Store(db) as store, store.engine.begin() as c:  # the server was down an hour
        c.execute(update(tables).values(active_at=an_hour_ago, created_at=an_hour_ago))
    with open_client(db, max_tables_per_client=2) as client:
        assert client.get(f"/api/tables/{second['table']['id']}").status_code == 404
        assert create(client).status_code == 201
        assert create(client).status_code == 201
    found = statuses(db)
    assert found[first["table"]["id"]] == "cancelled"
    assert found[second["table"]["id"]] == "expired"


def test_tables_in_play_do_not_expire(client: TestClient) -> None:
    clock = Clock()
    lobby_of(client).clock = clock
    host = new_table(client, [])
    table_id = host["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200
    clock.now += 10 * LOBBY_IDLE_S
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


# Daily attempts in the quota ------------------------------------------------------------


def start_daily(client: TestClient, name: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post("/api/daily", json={"name": name}, headers=headers)


def test_daily_attempts_count_against_the_quota(quota2: TestClient, db: str) -> None:
    """A daily attempt is a table of its client's address: with one attempt and one
    table open, a third of either is refused (``too_many_tables``) and records nothing;
    going back to one's attempt takes no room, and a freed one lets the attempt begin."""
    client = quota2
    ann = start_daily(client, "Ann").json()
    table = create(client).json()
    full = start_daily(client, "Bob")
    assert full.status_code == 403 and full.json()["code"] == "too_many_tables"
    assert create(client).json()["code"] == "too_many_tables"
    with Store(db) as store:
        assert [r.player for r in daily_records.results_of_day(store, daily.today())] == ["Ann"]
    back = start_daily(client, "Ann", ann["token"])
    assert back.status_code == 200 and back.json()["table"]["id"] == ann["table"]["id"]
    assert client.delete(f"/api/tables/{table['table']['id']}", headers=auth(table)).is_success
    assert start_daily(client, "Bob").status_code == 200
    assert create(client).json()["code"] == "too_many_tables"


def test_an_attempt_refused_by_a_quota_reached_meanwhile_is_taken_back(
    quota2: TestClient, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quota reached between the check and the table's record (another request of the
    same address, or another node): the attempt's game and row go, and the player may
    begin it once there is room."""
    client = quota2
    first = create(client).json()
    assert create(client).status_code == 201

    async def room_left(owner: str) -> None:  # the check saw room: the tables came after
        pass

    monkeypatch.setattr(lobby_of(client), "check_quota", room_left)
    full = start_daily(client, "Cy")
    assert full.status_code == 403 and full.json()["code"] == "too_many_tables"
    with Store(db) as store, store.engine.connect() as c:
        assert daily_records.results_of_day(store, daily.today()) == []
        assert c.execute(select(func.count()).select_from(games)).scalar_one() == 0
    assert client.delete(f"/api/tables/{first['table']['id']}", headers=auth(first)).is_success
    assert start_daily(client, "Cy").status_code == 200


def test_an_unfinished_daily_attempt_expires_when_its_day_is_over(
    quota2: TestClient, db: str
) -> None:
    """At midnight (UTC, by the lobby's clock) an unfinished attempt is gone, its room in
    the quota free again, and the records say ``expired``, its game still named; the
    next day's attempt is a new one."""
    client = quota2
    clock = Clock()
    lobby = lobby_of(client)
    lobby.clock = clock
    ann, bob = start_daily(client, "Ann").json(), start_daily(client, "Bob").json()
    assert create(client).json()["code"] == "too_many_tables"
    midnight = datetime.combine(lobby.today() + timedelta(days=1), dtime(), UTC).timestamp()
    clock.now = midnight - 1
    view = client.get(f"/api/tables/{ann['table']['id']}", headers=auth(ann))
    assert view.status_code == 200 and view.json()["status"] == "playing"
    assert create(client).json()["code"] == "too_many_tables"

    clock.now = midnight + 1
    gone = client.get(f"/api/tables/{ann['table']['id']}", headers=auth(ann))
    assert gone.status_code == 404 and gone.json()["code"] == "no_table"
    assert create(client).status_code == 201  # the day's attempts no longer count
    again = start_daily(client, "Ann", ann["token"])
    assert again.status_code == 200, again.text
    assert again.json()["day"] == lobby.today().isoformat() != ann["day"]
    assert again.json()["table"]["id"] != ann["table"]["id"]
    assert client.portal is not None
    expired = client.portal.call(lobby.expire_idle)
    assert sorted(t.id for t in expired) == sorted(p["table"]["id"] for p in (ann, bob))
    with Store(db) as store:
        for player in (ann, bob):
            row = tables_records.load_table(store, player["table"]["id"])
            assert row is not None and row.status == "expired"
            assert row.game_id == player["table"]["game_id"]


# Finished games --------------------------------------------------------------------------


async def _play_out(live: LiveGame, table: Table) -> None:
    """Every human seat rolls once and fills the first legal box, until the game is over
    and its table recorded as finished."""
    deadline = time.monotonic() + 60
    while table.status != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        session = live.session
        seat = session.current
        if session.is_over or seat is None or session.is_bot(seat):
            await asyncio.sleep(0.005)
            continue
        game = session.game
        if game.turn is None or game.turn.dice is None:
            await live.act(Keep.NONE, seat)
        else:
            await live.act(Score(game.placements()[0].category), seat)


def finished_table(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann (host) and Bob, a game played to its end."""
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200
    table = lobby_of(client).tables[table_id]
    assert client.portal is not None and table.live is not None
    client.portal.call(_play_out, table.live, table)
    return host, bob


def test_a_finished_games_record_cannot_be_rewritten(client: TestClient) -> None:
    host, _ = finished_table(client)
    table_id = host["table"]["id"]
    before = client.get(f"/api/tables/{table_id}").json()
    assert before["status"] == "finished"
    for method, path, body in [
        ("POST", f"/api/tables/{table_id}/seats/1/bot", {"level": 3}),
        ("POST", f"/api/tables/{table_id}/start", None),
        ("DELETE", f"/api/tables/{table_id}", None),
    ]:
        answer = client.request(method, path, json=body, headers=auth(host))
        assert answer.status_code == 409, (path, answer.text)
        assert answer.json()["code"] == "finished"
    late = client.post(f"/api/join/{host['invite']}", json={"name": "Cy"})
    assert late.status_code == 409 and late.json()["code"] == "finished"
    assert client.get(f"/api/tables/{table_id}").json() == before
    session = session_of(client, table_id)
    assert session.seats[1].bot is None  # Bob's review stays his
    assert [p.name for p in session.review()] == ["Ann", "Bob"]


def test_a_finished_table_is_still_there_after_a_restart(db: str) -> None:
    with open_client(db) as client:
        host, _ = finished_table(client)
    table_id = host["table"]["id"]
    with open_client(db) as client:
        view = client.get(f"/api/tables/{table_id}")
        assert view.status_code == 200 and view.json()["status"] == "finished"
        assert session_of(client, table_id).game.is_over
        assert lobby_of(client).tables[table_id].seat_of(host["token"]) == 0
        refused = client.post(f"/api/tables/{table_id}/seats/1/bot", headers=auth(host), json={})
        assert refused.status_code == 409
    two_days_ago = datetime.now(UTC) - timedelta(days=2)
    with Store(db) as store, store.engine.begin() as c:
        c.execute(update(tables).values(active_at=two_days_ago))
    with open_client(db) as client:  # not loaded at startup: read when asked for
        lobby = lobby_of(client)
        assert table_id not in lobby.tables
        view = client.get(f"/api/tables/{table_id}")
        assert view.status_code == 200 and view.json()["status"] == "finished"
        assert session_of(client, table_id).game.is_over


# Bots handed a seat ---------------------------------------------------------------------


def test_bots_are_named_by_their_seat_and_take_a_level_per_seat(client: TestClient) -> None:
    host = new_table(client, [{"kind": "human"}, {"kind": "bot", "level": 1}, {"kind": "human"}])
    table_id = host["table"]["id"]
    assert host["table"]["seats"][2]["name"] == "Bot 3 (level 1)"
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    assert bob["seat"] == 1
    for seat, level in [(1, 5), (3, 2)]:  # Bob's seat (before the start) and an open one
        answer = client.post(
            f"/api/tables/{table_id}/seats/{seat}/bot", json={"level": level}, headers=auth(host)
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["seats"][seat]
        assert view["name"] == f"Bot {seat + 1} (level {level})"
        assert view["bot"] == f"level{level}"
    bad: list[Any] = [0, 6, 2.5, "five", None]
    for level in bad:
        refused = client.post(
            f"/api/tables/{table_id}/seats/3/bot", json={"level": level}, headers=auth(host)
        )
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
        assert "from 1 to 5" in refused.json()["message"]
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200


def test_a_player_handed_to_a_bot_mid_game_keeps_the_name_the_cards_show(
    client: TestClient,
) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200
    answer = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"level": 4}, headers=auth(host)
    )
    seat = answer.json()["seats"][1]
    assert (seat["name"], seat["bot"]) == ("Bob", "level4")
    table = lobby_of(client).tables[table_id]
    assert table.seat_of(bob["token"]) is None
