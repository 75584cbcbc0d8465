"""The server as it is wired: a turn passing to a friend who is away is pushed to their
browser (the test's push service decrypts it), once; a friend looking at the table is not
pushed; nobody is pushed for a table without accounts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.push_service import PushService
from tests.web.helpers import joined
from tests.web.test_accounts import SITE, browser, cheap_hashing, sign_up
from tests.web.test_my_games import a_turn, with_bob
from yahtzee.web.app import create_app


@pytest.fixture
def service() -> Iterator[PushService]:
    with PushService().running() as running:
        yield running


@pytest.fixture
def ann(db: str) -> Iterator[TestClient]:
    app = create_app(db, bot_delay=0, rate=1e6, push_allow_local=True)
    with TestClient(app, headers={"origin": SITE}) as client:
        cheap_hashing(client)
        sign_up(client, "Ann")
        yield client


def settled(client: TestClient) -> None:
    """Every push under way has been sent (the notifier sends in the background)."""
    client.portal.call(client.app.state.pushing.notifier.idle)  # type: ignore[attr-defined, union-attr]


def test_a_turn_passing_to_an_away_friend_is_pushed_once(
    ann: TestClient, service: PushService
) -> None:
    bob = browser(ann)
    sign_up(bob, "Bob")
    phone = service.browser()
    answer = bob.post("/api/push/subscriptions", json=phone.subscription())
    assert answer.status_code == 204, answer.text
    made = with_bob(ann, bob)
    table_id = made["table"]["id"]
    a_turn(ann, table_id, made["token"])  # Ann places: Bob (away) is to move
    pushed = phone.read(service.next())
    assert "Your turn" in pushed["title"], pushed
    assert table_id in pushed["url"], pushed
    settled(ann)
    service.nothing_more()  # once (and Ann, with no subscription, is not pushed)


def test_a_friend_looking_at_the_table_is_not_pushed(ann: TestClient, service: PushService) -> None:
    bob = browser(ann)
    sign_up(bob, "Bob")
    phone = service.browser()
    assert bob.post("/api/push/subscriptions", json=phone.subscription()).status_code == 204
    made = with_bob(ann, bob)
    table_id = made["table"]["id"]
    seat = bob.post(f"/api/tables/{table_id}/seat").json()
    # Bob's page at the table (its socket on the server's own loop: ann's client's)
    with joined(ann, table_id, token=seat["token"]):
        a_turn(ann, table_id, made["token"])
        settled(ann)
    service.nothing_more()
