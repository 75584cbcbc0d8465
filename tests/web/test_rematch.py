"""Rematch together: once a game is over, the first player's rematch makes one new table
with the same seats, every other player at the old table is told of it at once and takes
their own seat there, and a series of rematches is one sitting."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.cli_helpers import run_cli
from tests.web.conftest import new_table, started_table
from tests.web.helpers import joined, next_of
from tests.web.test_lobby_lifecycle import (
    Clock,
    _play_out,
    auth,
    finished_table,
    lobby_of,
    open_client,
)
from yahtzee.service import LOBBY_IDLE_S, rematch
from yahtzee.store import Store
from yahtzee.store import tables as records
from yahtzee.store.schema import tables


def ask(client: TestClient, table_id: str, player: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table_id}/rematch", headers=auth(player))


def rematched(client: TestClient, table_id: str, player: dict[str, Any]) -> dict[str, Any]:
    answer = ask(client, table_id, player)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def table_count(db: str) -> int:
    with Store(db) as store, store.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(tables)).scalar_one())


def play_to_the_end(client: TestClient, table_id: str) -> None:
    table = lobby_of(client).tables[table_id]
    assert client.portal is not None and table.live is not None
    client.portal.call(_play_out, table.live, table)


def test_both_players_land_at_the_same_new_table(client: TestClient, db: str) -> None:
    ann, bob = finished_table(client)
    old_id = ann["table"]["id"]
    with joined(client, old_id, token=bob["token"]) as bob_old:
        assert next_of(bob_old, "state")["table"]["rematch"] is None
        made = rematched(client, old_id, ann)
        new_id = made["table"]["id"]
        told = next_of(bob_old, "lobby", timeout=5)  # Bob is offered it at once
        assert told["table"]["rematch"] == new_id and told["table"]["id"] == old_id

    assert new_id != old_id and made["seat"] == 0 and made["token"] != ann["token"]
    assert made["invite"] and made["spectate"]  # the host's links to the new table
    view = made["table"]
    assert (view["status"], view["sitting"], view["rematch"]) == ("lobby", old_id, None)
    assert [(s["name"], s["open"], s["reserved"]) for s in view["seats"]] == [
        ("Ann", False, False),
        ("Bob", True, True),  # kept for Bob
    ]
    old = client.get(f"/api/tables/{old_id}").json()
    assert (old["status"], old["rematch"], old["sitting"]) == ("finished", new_id, old_id)
    with joined(client, old_id, token=ann["token"]) as ann_old:  # the offer, on reconnecting
        assert next_of(ann_old, "state")["table"]["rematch"] == new_id

    # nobody takes Bob's seat through the invite link, and the host cannot start yet
    stranger = client.post(f"/api/join/{made['invite']}", json={"name": "Cy"})
    assert stranger.status_code == 409 and stranger.json()["code"] == "table_full"
    early = client.post(f"/api/tables/{new_id}/start", headers=auth(made))
    assert early.status_code == 409 and early.json()["code"] == "seats_open"
    assert "Bob" in early.json()["message"]

    with joined(client, new_id, token=made["token"]) as ann_new:
        assert next_of(ann_new, "state")["you"] == {"seat": 0, "role": "player"}
        bobs = rematched(client, old_id, bob)
        assert (bobs["table"]["id"], bobs["seat"]) == (new_id, 1)
        assert bobs["invite"] is None and bobs["spectate"] is None
        assert bobs["token"] not in (bob["token"], made["token"])
        seats = next_of(ann_new, "lobby", timeout=5)["table"]["seats"]
        assert (seats[1]["name"], seats[1]["open"], seats[1]["reserved"]) == ("Bob", False, False)
        # asked again, by either: the same table, the same seat, the same token
        for player, seat, token in ((bob, 1, bobs["token"]), (ann, 0, made["token"])):
            again = rematched(client, old_id, player)
            assert (again["table"]["id"], again["seat"], again["token"]) == (new_id, seat, token)

        with joined(client, new_id, token=bobs["token"]) as bob_new:
            assert next_of(bob_new, "state")["you"] == {"seat": 1, "role": "player"}
            started = client.post(f"/api/tables/{new_id}/start", headers=auth(made))
            assert started.status_code == 200, started.text
            for ws in (ann_new, bob_new):
                state = next_of(ws, "state", timeout=5)
                assert state["game"]["players"] == ["Ann", "Bob"]
                assert state["table"]["status"] == "playing"
    assert table_count(db) == 2  # the old table and one rematch


def test_two_players_pressing_at_once_make_one_table(client: TestClient, db: str) -> None:
    ann, bob = finished_table(client)
    old_id = ann["table"]["id"]
    lobby = lobby_of(client)
    table = lobby.tables[old_id]

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(
                rematch(lobby, table, ann["token"]), rematch(lobby, table, bob["token"])
            )
        )

    assert client.portal is not None
    first, second = client.portal.call(both)
    assert first.table is second.table and (first.seat, second.seat) == (0, 1)
    assert not any(s.open for s in first.table.seats)
    assert table_count(db) == 2


def test_many_requests_at_once_over_http_make_one_table(client: TestClient, db: str) -> None:
    ann, bob = finished_table(client)
    old_id = ann["table"]["id"]
    players = [ann, bob] * 4
    with ThreadPoolExecutor(len(players)) as pool:
        answers = list(pool.map(lambda p: rematched(client, old_id, p), players))
    assert len({a["table"]["id"] for a in answers}) == 1
    assert {(a["seat"], a["token"]) for a in answers} == {
        (answers[0]["seat"], answers[0]["token"]),
        (answers[1]["seat"], answers[1]["token"]),
    }
    assert table_count(db) == 2


def test_a_rematch_is_refused_before_the_game_is_over_and_to_others(client: TestClient) -> None:
    host, bob = started_table(client)
    table_id = host["table"]["id"]
    for player in (host, bob):
        early = ask(client, table_id, player)
        assert early.status_code == 409 and early.json()["code"] == "not_over"
        assert early.json()["message"]
    lobby = new_table(client, [])
    assert ask(client, lobby["table"]["id"], lobby).json()["code"] == "not_over"

    ann, _ = finished_table(client)
    old_id = ann["table"]["id"]
    for headers in (
        {"Authorization": f"Bearer {host['spectate']}"},  # another table's spectator key
        {"Authorization": f"Bearer {ann['spectate']}"},  # this table's spectator key
        {"Authorization": f"Bearer {host['token']}"},  # another table's player
        {},
    ):
        refused = client.post(f"/api/tables/{old_id}/rematch", headers=headers)
        assert refused.status_code == 403 and refused.json()["code"] == "not_player"
    unknown = client.post("/api/tables/nope/rematch", headers=auth(ann))
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_table"
    assert client.get(f"/api/tables/{old_id}").json()["rematch"] is None


def test_rematches_chain_into_one_sitting(client: TestClient, db: str, tmp_path: Path) -> None:
    ann, bob = finished_table(client)
    first_id = ann["table"]["id"]
    assert ann["table"]["sitting"] == first_id  # a new table is a sitting of its own
    ids = [first_id]
    players = (ann, bob)
    for _ in range(2):
        ann_seat = rematched(client, ids[-1], players[0])
        bob_seat = rematched(client, ids[-1], players[1])
        new_id = ann_seat["table"]["id"]
        assert bob_seat["table"]["id"] == new_id and ann_seat["table"]["sitting"] == first_id
        started = client.post(f"/api/tables/{new_id}/start", headers=auth(ann_seat))
        assert started.status_code == 200, started.text
        play_to_the_end(client, new_id)
        ids.append(new_id)
        players = (ann_seat, bob_seat)
    assert len(set(ids)) == 3
    for table_id in ids:
        view = client.get(f"/api/tables/{table_id}").json()
        assert view["sitting"] == first_id and view["status"] == "finished"
    with Store(db) as store:  # a game's record reaches its sitting through its table
        games = records.sitting_games(store, first_id)
        assert len(games) == 3
        assert [records.load_table(store, t).game_id for t in ids] == games  # type: ignore[union-attr]
        assert {records.sitting_of_game(store, g) for g in games} == {first_id}
        totals = [[card.total for card in store.load(g).cards] for g in games]
    assert client.get(f"/api/tables/{ids[-1]}").json()["rematch"] is None
    # the sitting's standings across its games (read by anyone, like a table)
    standings = client.get(f"/api/sittings/{first_id}").json()
    assert [g["totals"] for g in standings["games"]] == totals
    assert [s["total"] for s in standings["standings"]] == [
        sum(t[p] for t in totals) for p in (0, 1)
    ]
    for unknown in ("nope", "x" * 100):
        for path in (f"/api/sittings/{unknown}", f"/api/sittings/{unknown}/pad"):
            missing = client.get(path)
            assert missing.status_code == 404 and missing.json()["code"] == "no_sitting"
    # the pad to print: its own page, nothing loads or runs, its one style allowed by hash
    printed_pad = client.get(f"/api/sittings/{first_id}/pad")
    assert printed_pad.status_code == 200 and printed_pad.headers["content-type"].startswith(
        "text/html"
    )
    style = re.search(r"<style>(.*?)</style>", printed_pad.text, re.DOTALL)
    assert style is not None and "<script" not in printed_pad.text
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    policy = printed_pad.headers["content-security-policy"]
    assert f"style-src 'sha256-{digest}'" in policy and "default-src 'none'" in policy
    # the sitting prints as the filled pad: a column per game, a running total per player
    pad = tmp_path / "pad.html"
    printed = run_cli("card", games[1][:8], "--sitting", "--html", str(pad), "--database-url", db)
    assert printed.returncode == 0, printed.stderr
    running = re.search(r'<tr class="running">(.*?)</tr>', pad.read_text())
    assert running is not None
    cells = [int(c) for c in re.findall(r"<td>(\d+)</td>", running.group(1))]
    expected = [sum(game[p] for game in totals[: g + 1]) for p in range(2) for g in range(3)]
    assert cells == expected  # Ann's three games, then Bob's


def test_a_cancelled_or_expired_rematch_is_gone(client: TestClient, db: str) -> None:
    ann, bob = finished_table(client)
    old_id = ann["table"]["id"]
    made = rematched(client, old_id, ann)
    cancelled = client.delete(f"/api/tables/{made['table']['id']}", headers=auth(made))
    assert cancelled.status_code == 200, cancelled.text
    for player in (bob, ann):
        gone = ask(client, old_id, player)
        assert gone.status_code == 410 and gone.json()["code"] == "rematch_gone"
    assert table_count(db) == 2  # no third table

    clock = Clock()
    lobby_of(client).clock = clock
    ann2, bob2 = finished_table(client)
    made = rematched(client, ann2["table"]["id"], bob2)  # Bob asks first: Ann's seat kept
    assert made["seat"] == 1 and made["invite"] is None
    assert made["table"]["seats"][0]["reserved"]
    clock.now += LOBBY_IDLE_S + 1
    gone = ask(client, ann2["table"]["id"], ann2)
    assert gone.status_code == 410 and gone.json()["code"] == "rematch_gone"


def test_a_kept_seat_handed_to_a_bot_is_gone_and_the_host_starts(client: TestClient) -> None:
    ann, bob = finished_table(client)
    old_id = ann["table"]["id"]
    made = rematched(client, old_id, ann)
    new_id = made["table"]["id"]
    handed = client.post(f"/api/tables/{new_id}/seats/1/bot", json={"level": 2}, headers=auth(made))
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][1]["name"] == "Bot 2 (level 2)"
    late = ask(client, old_id, bob)
    assert late.status_code == 409 and late.json()["code"] == "seat_gone"
    assert client.post(f"/api/tables/{new_id}/start", headers=auth(made)).status_code == 200


def test_bots_sit_again_and_the_rematch_survives_a_restart(db: str) -> None:
    with open_client(db) as client:
        host = new_table(client, [{"kind": "bot", "level": 2}, {"kind": "human"}])
        old_id = host["table"]["id"]
        bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
        assert client.post(f"/api/tables/{old_id}/start", headers=auth(host)).status_code == 200
        play_to_the_end(client, old_id)
        made = rematched(client, old_id, host)
    seats = made["table"]["seats"]
    assert [(s["name"], s["bot"], s["reserved"]) for s in seats] == [
        ("Ann", None, False),
        ("Bot 2 (level 2)", "level2", False),
        ("Bob", None, True),
    ]
    new_id = made["table"]["id"]
    with open_client(db) as client:  # restarted
        assert client.get(f"/api/tables/{old_id}").json()["rematch"] == new_id
        assert client.get(f"/api/tables/{new_id}").json()["seats"][2]["reserved"]
        bobs = rematched(client, old_id, bob)
        assert (bobs["table"]["id"], bobs["seat"]) == (new_id, 2)
        again = rematched(client, old_id, host)
        assert (again["token"], again["invite"]) == (made["token"], made["invite"])
        assert client.post(f"/api/tables/{new_id}/start", headers=auth(made)).status_code == 200
