"""Two people at a table each roll their own dice (issue 49, item 1), through a real
server (started without ``--seed``: the secret-seed dice) and two real WebSocket clients;
then ``yahtzee verify`` checks every roll of the game from the records."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx

from tests.cli_helpers import run_cli
from tests.live_server import running
from tests.web.helpers import intent_for, next_of, seated

ROUNDS = 13
MOST_SHARED = 4
"""At most this many rounds in which both seats' first rolls show the same five dice (as a
multiset). Two fair independent rolls of five dice agree with probability
sum over the 252 multisets m of P(m)^2 = 0.00635 (about 1 in 157); the chance that
independent dice agree in 5 or more of 13 rounds, and this test fails although the dice are
fair, is sum_{k>=5} C(13,k) p^k (1-p)^(13-k) = 1.3e-8. On one duplicate stream for the
table, as before, the seats agreed in 13 rounds of 13."""


def table_of_two(base: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Ann's table with a seat for Bob, who joins; started. Their answers and the game id."""
    with httpx.Client(base_url=f"http://{base}", timeout=30) as http:
        ann = http.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})
        assert ann.status_code == 201, ann.text
        host = ann.json()
        bob = http.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
        started = http.post(
            f"/api/tables/{host['table']['id']}/start",
            headers={"Authorization": f"Bearer {host['token']}"},
        )
    assert started.status_code == 200, started.text
    assert len(started.json()["commitment"]) == 64  # committed dice: no --seed
    return host, bob, started.json()["game_id"]


def test_two_people_at_a_table_roll_their_own_dice_and_the_game_verifies(db: str) -> None:
    with running(db) as base:
        host, bob, game_id = table_of_two(base)
        table = host["table"]["id"]
        firsts: dict[int, list[str]] = {0: [], 1: []}  # each seat's first roll of a round
        with (
            seated(base, table, token=host["token"]) as ann_ws,
            seated(base, table, token=bob["token"]) as bob_ws,
        ):
            game = next_of(ann_ws, "state")["game"]
            sockets = {0: ann_ws, 1: bob_ws}
            for _ in range(4 * ROUNDS + 1):  # each turn: one roll, then the first box
                if game["phase"] == "over":
                    break
                sockets[game["current"]].send_json(intent_for(game))
                message = next_of(ann_ws, "event", "error")
                assert message["type"] == "event", message
                event, game = message["event"], message["game"]
                if event["type"] == "roll":
                    assert event["keep"] == "-"
                    firsts[event["player"]].append(event["dice"])
            assert game["phase"] == "over"
    assert len(firsts[0]) == len(firsts[1]) == ROUNDS
    shared = sum(Counter(a) == Counter(b) for a, b in zip(firsts[0], firsts[1], strict=True))
    assert shared <= MOST_SHARED, (shared, firsts)
    verified = run_cli("verify", game_id, "--database-url", db)
    assert verified.returncode == 0, verified.stderr
    assert f"Game {game_id[:8]}: all {2 * ROUNDS} rolls came from the seed" in verified.stdout
    assert "each seat drew its own dice" in verified.stdout
