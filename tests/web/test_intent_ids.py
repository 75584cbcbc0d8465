"""Intent ids (a repeat is answered again, applied once) and nothing uncommitted shown.

The live game applies an action in memory, then commits it: while the store's write is
held, a resync or a new connection must still show the game as committed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_table, started_table
from tests.web.helpers import answer, joined, next_of
from yahtzee.web.app import create_app

POSTGRES_URL = os.environ.get("YAHTZEE_TEST_POSTGRES_URL")


def test_a_repeated_roll_is_answered_twice_and_rolled_once(client: TestClient) -> None:
    host, _bob = started_table(client)
    table_id = host["table"]["id"]
    with (
        joined(client, table_id, token=host["token"]) as ann,
        joined(client, table_id, token=host["token"]) as ann_phone,
    ):
        assert next_of(ann, "state")["seq"] == 1
        next_of(ann_phone, "state")
        ann.send_json({"type": "roll", "id": "click-1"})
        ann.send_json({"type": "roll", "id": "click-1"})  # a double click
        ann_phone.send_json({"type": "roll", "id": "click-1"})  # the same, resent elsewhere
        first, second = answer(ann, "click-1"), answer(ann, "click-1")
        third = answer(ann_phone, "click-1")
        assert first == second == third == {"v": 1, "type": "ack", "id": "click-1", "seq": 2}
        ann.send_json({"type": "resync", "id": "look"})
        state = next_of(ann, "state")
        assert state["seq"] == 2 and state["game"]["rolls_left"] == 2
        assert answer(ann, "look")["seq"] == 2
        # a refused intent changes nothing and says which it was; a new id acts again
        ann.send_json({"type": "score", "box": "nonsense", "id": "bad"})
        refused = answer(ann, "bad")
        assert refused["type"] == "error" and refused["code"] == "invalid_input"
        ann.send_json({"type": "roll", "id": "click-2"})
        assert answer(ann, "click-2")["seq"] == 3
        ann.send_json({"type": "cheat", "id": "odd"})
        assert answer(ann, "odd")["code"] == "unknown_type"


def test_a_repeated_chat_line_is_sent_once(client: TestClient) -> None:
    host = new_table(client, [])
    table_id = host["table"]["id"]
    with joined(client, table_id, token=host["token"]) as ann:
        next_of(ann, "state")
        for _ in range(3):
            ann.send_json({"type": "chat", "text": "hello", "id": "c1"})
        for _ in range(3):
            assert answer(ann, "c1")["type"] == "ack"
        ann.send_json({"type": "resync"})
        assert [c["text"] for c in next_of(ann, "state")["chat"]] == ["hello"]


# Nothing uncommitted is shown ----------------------------------------------------------


@contextmanager
def held_by_patch(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The store's group commit blocks until the test lets it go."""
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    saving, release = threading.Event(), threading.Event()
    save_many = store.save_many

    def held(*args: Any, **kwargs: Any) -> Any:
        saving.set()
        assert release.wait(timeout=30), "the test never let the write go"
        return save_many(*args, **kwargs)

    monkeypatch.setattr(store, "save_many", held)

    def hold() -> Any:
        return release.set

    try:
        yield hold
    finally:
        release.set()


@contextmanager
def held_by_lock(url: str) -> Iterator[Any]:
    """Another PostgreSQL session holds ``LOCK TABLE events IN EXCLUSIVE MODE``."""
    import psycopg

    with psycopg.connect(url) as other:

        def hold() -> Any:
            other.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            return other.rollback

        try:
            yield hold
        finally:
            other.rollback()


def postgres_database() -> str:
    from tests.store.conftest import new_database

    assert POSTGRES_URL is not None
    return new_database(POSTGRES_URL)


@pytest.mark.parametrize(
    "backend",
    [
        "patched",
        pytest.param(
            "postgres",
            marks=pytest.mark.skipif(
                POSTGRES_URL is None, reason="YAHTZEE_TEST_POSTGRES_URL is not set"
            ),
        ),
    ],
)
def test_a_move_being_saved_is_shown_to_nobody(
    backend: str, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres_database() if backend == "postgres" else db
    with TestClient(create_app(url, bot_delay=0, rate=1e6)) as client:
        host, bob = started_table(client)
        table_id = host["table"]["id"]
        holding = held_by_lock(url) if backend == "postgres" else held_by_patch(client, monkeypatch)
        with (
            holding as hold,
            joined(client, table_id, token=host["token"]) as ann,
            joined(client, table_id, token=bob["token"]) as bob_ws,
        ):
            before = next_of(ann, "state")
            next_of(bob_ws, "state")
            release = hold()
            ann.send_json({"type": "roll", "id": "r"})
            ann.send_json({"type": "hint", "id": "h"})  # no advice on dice not yet saved
            bob_ws.send_json({"type": "resync"})
            seen = next_of(bob_ws, "state")
            assert (seen["seq"], seen["game"]) == (before["seq"], before["game"])
            with joined(client, table_id, watch=host["spectate"]) as fan:
                new = next_of(fan, "state")
                assert (new["seq"], new["game"]) == (before["seq"], before["game"])
            with pytest.raises(AssertionError, match="no message"):
                next_of(ann, "event", "hint", "ack", timeout=1)
            release()
            event = next_of(ann, "event")
            assert event["seq"] == before["seq"] + 1
            assert answer(ann, "r")["seq"] == event["seq"]
            hint = next_of(ann, "hint")
            assert hint["situation"]  # about the dice now saved
            bob_ws.send_json({"type": "resync"})
            after = next_of(bob_ws, "state")
            assert after["seq"] == event["seq"] and after["game"] == event["game"]
