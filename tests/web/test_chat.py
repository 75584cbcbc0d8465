"""The table's chat is kept in the records: a restarted server shows it again, and only
the last lines stay recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.server_process import ServerProcess
from tests.web.conftest import new_table
from tests.web.helpers import joined, next_of, say_lines, seated
from yahtzee.store import Store
from yahtzee.store.chat import LINES_KEPT, chat_of
from yahtzee.web.hub import CHAT_KEPT


def test_only_the_last_lines_are_recorded_and_the_state_shows_the_last_50(
    client: TestClient, db: str
) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        say_lines(ann, LINES_KEPT + 10)
    with Store(db) as store:
        recorded = chat_of(store, table_id, limit=LINES_KEPT + 10)
    assert [x.text for x in recorded] == [f"line {n}" for n in range(10, LINES_KEPT + 10)]
    with joined(client, table_id, watch=host["spectate"]) as fan:
        chat = next_of(fan, "state")["chat"]
    shown = range(LINES_KEPT + 10 - CHAT_KEPT, LINES_KEPT + 10)
    assert [line["text"] for line in chat] == [f"line {n}" for n in shown]


def test_a_cancelled_tables_chat_goes_with_it(client: TestClient, db: str) -> None:
    host = new_table(client, [{"kind": "human"}])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        ann.send_json({"type": "chat", "text": "anyone?"})
        next_of(ann, "chat")
    with Store(db) as store:
        assert [x.text for x in chat_of(store, table_id)] == ["anyone?"]
    headers = {"Authorization": f"Bearer {host['token']}"}
    assert client.delete(f"/api/tables/{table_id}", headers=headers).status_code == 200
    with Store(db) as store:
        assert chat_of(store, table_id) == []


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}")
    try:
        yield process
    finally:
        process.stop()


def test_a_restarted_server_shows_the_chat_again(server: ServerProcess) -> None:
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        host = http.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})
        made = host.json()
        bob = http.post(f"/api/join/{made['invite']}", json={"name": "Bob"}).json()
    table_id, base = made["table"]["id"], f"127.0.0.1:{server.port}"
    said = [(0, "Ann", "hello"), (1, "Bob", "hi Ann"), (0, "Ann", "ready?")]
    with (
        seated(base, table_id, token=made["token"]) as ann,
        seated(base, table_id, token=bob["token"]) as bob_ws,
    ):
        next_of(ann, "state")
        next_of(bob_ws, "state")
        for seat, _, text in said:
            speaker = ann if seat == 0 else bob_ws
            speaker.send_json({"type": "chat", "text": text, "id": text})
            assert next_of(speaker, "ack")["id"] == text  # recorded, then answered
    server.stop()
    server.start()  # a new process over the same database
    with seated(f"127.0.0.1:{server.port}", table_id, watch=made["spectate"]) as fan:
        chat = next_of(fan, "state")["chat"]
    assert [(line["seat"], line["name"], line["text"]) for line in chat] == said
