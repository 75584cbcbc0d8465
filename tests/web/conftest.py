from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from yahtzee.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, rate=1e6)) as test_client:
        yield test_client


def new_table(client: TestClient, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    seats = seats if seats is not None else [{"kind": "human"}, {"kind": "bot", "level": 5}]
    response = client.post("/api/tables", json={"host": "Ann", "seats": seats})
    assert response.status_code == 201, response.text
    host: dict[str, Any] = response.json()
    return host


def started_table(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ann (host, seat 0), Bob (seat 1) and a level-5 bot (seat 2), started."""
    host = new_table(client)
    bob = client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).json()
    table_id = host["table"]["id"]
    response = client.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host['token']}"}
    )
    assert response.status_code == 200, response.text
    return host, bob
