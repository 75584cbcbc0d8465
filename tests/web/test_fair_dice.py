"""Every online game commits to its dice: the commitment from the start, the seed never
sent before the end, then revealed, and every roll of the record from it."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, play_out, receive_json
from yahtzee.core import check_rolls
from yahtzee.store import Store


class Recording:
    """A connection whose every message is kept as the client received it."""

    def __init__(self, socket: Any) -> None:
        self.socket, self.seen = socket, list[str]()

    def send_json(self, data: Any) -> None:
        self.socket.send_json(data)

    def recv(self, timeout: float) -> str:
        text = json.dumps(receive_json(self.socket, timeout))
        self.seen.append(text)
        return text


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_commitment_at_the_start_matches_the_seed_revealed_at_the_end(
    client: TestClient, db: str
) -> None:
    host = new_table(client, seats=[])
    table_id, headers = host["table"]["id"], _auth(host["token"])
    started = client.post(f"/api/tables/{table_id}/start", headers=headers)
    assert started.status_code == 200
    answers = [started.text]
    game_id, committed = started.json()["game_id"], started.json()["commitment"]
    assert len(committed) == 64 and game_id
    before = client.get(f"/api/games/{game_id}/dice")
    answers.append(before.text)
    assert before.status_code == 200
    assert before.json()["commitment"] == committed and before.json()["seed"] is None
    assert before.json()["verify"] == f"yahtzee verify {game_id}" and before.json()["steps"]
    assert before.json()["draw"] == "seat"  # each seat its own dice, and the steps say how
    assert any('"|seat|s|r|n|i"' in step for step in before.json()["steps"])
    with joined(client, table_id, token=host["token"]) as raw:
        ws = Recording(raw)
        start = next_of(ws, "state")
        assert start["table"]["commitment"] == committed
        final = play_out({0: ws}, ws, start["game"])
        assert final["phase"] == "over"
        answers.append(client.get(f"/api/tables/{table_id}").text)
    after = client.get(f"/api/games/{game_id}/dice").json()
    seed = after["seed"]
    assert after["commitment"] == committed
    assert hashlib.sha256(seed.encode()).hexdigest() == committed
    # the seed was in no message nor answer while the game ran
    assert ws.seen and not any(seed in text for text in ws.seen + answers)
    with Store(db) as store:
        log = store.event_log(game_id)
    assert log[0]["commitment"] == committed and log[0]["draw"] == "seat"
    check_rolls(seed, log)  # every roll of the record came from the seed


def test_a_rematch_commits_to_dice_of_its_own(client: TestClient) -> None:
    host = new_table(client, seats=[])
    table_id, headers = host["table"]["id"], _auth(host["token"])
    first = client.post(f"/api/tables/{table_id}/start", headers=headers).json()
    with joined(client, table_id, token=host["token"]) as ws:
        play_out({0: ws}, ws, next_of(ws, "state")["game"])
    again = client.post(f"/api/tables/{table_id}/rematch", headers=headers).json()
    after = client.post(
        f"/api/tables/{again['table']['id']}/start", headers=_auth(again["token"])
    ).json()
    assert after["commitment"] and after["commitment"] != first["commitment"]
    assert client.get(f"/api/games/{after['game_id']}/dice").json()["seed"] is None


def test_the_dice_of_an_unknown_game_are_refused(client: TestClient) -> None:
    answer = client.get("/api/games/nothing-here/dice")
    assert answer.status_code == 404 and answer.json()["code"] == "no_game"
    assert client.get(f"/api/games/{'x' * 400}/dice").status_code == 404
