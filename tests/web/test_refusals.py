"""Every refusal is ``{"code", "message"}``: bad JSON (``NaN``, ``Infinity``, ``1e400``)
and failed validation are 400 with a sentence a player understands, unknown addresses 404,
and nothing answers 500 with a traceback."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_table
from yahtzee.core import MAX_NAME_LENGTH, MAX_PLAYERS
from yahtzee.web.app import create_app, plain_message

JSON = {"content-type": "application/json"}


def refusal(answer: Any, status: int = 400, code: str | None = "bad_request") -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"code", "message"}, body
    if code is not None:
        assert body["code"] == code, body
    assert "Traceback" not in answer.text and "detail" not in answer.text
    message: str = body["message"]
    assert message.endswith(".") and len(message) < 200
    return message


@pytest.mark.parametrize(
    "body",
    [
        '{"host": "A", "turn_timer": 1e400}',
        '{"host": "A", "turn_timer": -1e400}',
        '{"host": "A", "turn_timer": NaN}',
        '{"host": "A", "turn_timer": Infinity}',
        '{"host": "A", "turn_timer": -Infinity}',
        '{"host": NaN}',
        '{"host": "A", "seats": [{"kind": "bot", "level": NaN}]}',
        '{"host": "A", "unknown": Infinity}',  # even where it would be ignored
        '{"host": "A", "turn_timer": ' + "9" * 5000 + "}",
        "[" * 5000 + "]" * 5000,
        "{not json",
        "",
    ],
)
def test_non_finite_numbers_and_bad_json_are_refused(client: TestClient, body: str) -> None:
    answer = client.post("/api/tables", content=body, headers=JSON)
    message = refusal(answer)
    if "NaN" in body or "Infinity" in body:
        assert "not a number JSON allows" in message or "finite" in message


def test_every_json_body_is_read_strictly(client: TestClient) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    auth = {"Authorization": f"Bearer {host['token']}", **JSON}
    refusal(client.post(f"/api/join/{host['invite']}", content='{"name": NaN}', headers=JSON))
    refusal(
        client.post(
            f"/api/tables/{table_id}/seats/1/bot", content='{"level": Infinity}', headers=auth
        )
    )
    refusal(
        client.post(f"/api/tables/{table_id}/seats/1/bot", content='{"level": 1e400}', headers=auth)
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"host": ""}, "Your name is empty."),
        ({}, "Your name is missing."),
        ({"host": "A" * 100}, f"Your name is too long (at most {MAX_NAME_LENGTH} characters)."),
        ({"host": 5}, "Your name must be text."),
        ({"host": "A", "turn_timer": 0}, "The turn timer must be a whole number of seconds"),
        ({"host": "A", "turn_timer": 1.5}, "The turn timer must be a whole number of seconds"),
        ({"host": "A", "turn_timer": "soon"}, "The turn timer must be a whole number"),
        (
            {"host": "A", "seats": [{"kind": "bot", "level": 9}]},
            "The bot level of seat 2 must be a whole number from 1 to 5.",
        ),
        ({"host": "A", "seats": [{"kind": "alien"}]}, "The kind of seat of seat 2 must be"),
        ({"host": "A", "seats": [{"kind": "human"}] * MAX_PLAYERS}, "A table has at most"),
        ({"host": "A", "hints": "maybe"}, "Hints allowed must be true or false."),
        ([1, 2], "The request must be a JSON object."),
    ],
)
def test_validation_errors_are_400_in_words(client: TestClient, body: Any, message: str) -> None:
    assert refusal(client.post("/api/tables", json=body)).startswith(message)


def test_bad_paths_and_methods_are_refused_in_the_same_shape(client: TestClient) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    auth = {"Authorization": f"Bearer {host['token']}"}
    message = refusal(client.post(f"/api/tables/{table_id}/seats/one/bot", json={}, headers=auth))
    assert message == "The seat must be a whole number."
    refusal(client.get("/api/nothing-here"), 404, "not_found")
    refusal(client.get("/static/nothing.js"), 404, "not_found")
    refusal(client.get("/api/tables/" + "x" * 100), 404, "no_table")
    refusal(client.put("/api/tables"), 405, "method_not_allowed")


def test_an_unexpected_failure_is_a_500_without_a_traceback(db: str) -> None:
    app = create_app(db, bot_delay=0)

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("secret internals")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/boom")
    refusal(answer, 500, "server_error")
    assert "secret" not in answer.text
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_plain_message_without_errors() -> None:
    assert plain_message([]) == "The request is not valid."
