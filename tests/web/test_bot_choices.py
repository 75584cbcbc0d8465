"""The bots a table offers (``GET /api/bots``): the levels, ``optimal`` and ``winning``, each
with a line saying what it does; a seat takes any of them by its key (at the table's
creation, and when the host hands a seat to a bot), and a game against ``winning`` and
``optimal`` plays through with empty caches (the winning bot's tables are not built: it
plays by its fallback and says how in the review)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, play_out
from yahtzee.core import RuleSet
from yahtzee.solver.curve_table import table_loaded


def auth(player: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def test_the_server_lists_the_bots_it_offers_each_with_what_it_does(client: TestClient) -> None:
    answer = client.get("/api/bots")
    assert answer.status_code == 200
    offered = answer.json()
    keys = [b["bot"] for b in offered["bots"]]
    assert keys == ["level1", "level2", "level3", "level4", "level5", "optimal", "winning"]
    about = {b["bot"]: (b["name"], b["about"]) for b in offered["bots"]}
    assert about["winning"] == ("Winning", "plays for the best chance to finish first")
    assert about["optimal"][0] == "Optimal" and "most points" in about["optimal"][1]
    assert all(name and text for name, text in about.values())
    assert offered["default"] == "level3"


def test_a_table_seats_a_winning_and_an_optimal_bot_by_their_keys(client: TestClient) -> None:
    host = new_table(
        client,
        [{"kind": "bot", "bot": "winning"}, {"kind": "bot", "bot": "optimal"}, {"kind": "bot"}],
    )
    seats = host["table"]["seats"][1:]
    assert [(s["name"], s["bot"]) for s in seats] == [
        ("Bot 2 (winning)", "winning"),
        ("Bot 3 (optimal)", "optimal"),
        ("Bot 4 (level 3)", "level3"),  # neither key nor level: the default bot
    ]
    assert new_table(client, [{"kind": "bot", "bot": "level5"}])["table"]["seats"][1]["bot"] == (
        "level5"
    )


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"kind": "bot", "bot": "greedy"}, "no bot 'greedy' to choose"),
        ({"kind": "bot", "bot": "Winning"}, "the bots are level1, level2"),
        ({"kind": "bot", "bot": "winning", "level": 3}, "not both"),
        ({"kind": "bot", "bot": 5}, "must be text"),
    ],
)
def test_a_bot_not_offered_is_refused_and_nothing_is_made(
    client: TestClient, seat: dict[str, Any], words: str
) -> None:
    refused = client.post("/api/tables", json={"host": "Ann", "seats": [seat]})
    assert refused.status_code == 400, refused.text
    assert words in refused.json()["message"]
    assert set(refused.json()) == {"code", "message"}
    assert client.get("/api/health").json()["status"] == "ok"


def test_the_host_hands_a_seat_to_the_winning_bot(client: TestClient) -> None:
    host = new_table(client, [{"kind": "human"}, {"kind": "human"}])
    table_id = host["table"]["id"]
    handed = client.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"bot": "winning"}, headers=auth(host)
    )
    assert handed.status_code == 200, handed.text
    assert handed.json()["seats"][1]["bot"] == "winning"
    refused = client.post(
        f"/api/tables/{table_id}/seats/2/bot",
        json={"bot": "optimal", "level": 2},
        headers=auth(host),
    )
    assert refused.status_code == 400 and "not both" in refused.json()["message"]
    assert client.get(f"/api/tables/{table_id}").json()["seats"][2]["open"]


def test_a_game_against_winning_and_optimal_plays_through_with_empty_caches(
    client: TestClient,
) -> None:
    assert not table_loaded("target", RuleSet.official())  # the winning bot's tables are not built
    host = new_table(client, [{"kind": "bot", "bot": "winning"}, {"kind": "bot", "bot": "optimal"}])
    table_id = host["table"]["id"]
    assert client.post(f"/api/tables/{table_id}/start", headers=auth(host)).status_code == 200
    with joined(client, table_id, token=host["token"]) as ws:
        final = play_out({0: ws}, ws, next_of(ws, "state")["game"])
        assert all(card["total"] > 0 for card in final["cards"][1:])  # both bots scored
        ws.send_json({"v": 1, "type": "review"})
        notes = next_of(ws, "review")["notes"]
    assert any(n.startswith("Bot 2 (winning) played to win") for n in notes), notes
