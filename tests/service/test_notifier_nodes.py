"""Two server nodes on one PostgreSQL database notify a turn once: each node's notifier
hears of the same turn (a failover, a move relayed twice), and the push service receives
one push, signed by the one VAPID key every node reads from the records."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from tests.push_service import PushService, vapid_claims
from tests.service.test_notifier import notifier_on, subscribe, table_in_play
from tests.store.conftest import URL_ENV, new_database
from yahtzee.service.notifier import Notified, Notifier
from yahtzee.service.push import vapid_key
from yahtzee.store import Store


@pytest.fixture
def database() -> str:
    admin = os.environ.get(URL_ENV)
    if not admin and os.environ.get("CI"):
        pytest.fail(f"CI must run the two nodes' test: .ci/run sets {URL_ENV}.")
    if not admin:
        pytest.skip(f"two nodes share a PostgreSQL database: set {URL_ENV}")
    return new_database(admin)


@pytest.fixture
def nodes(database: str) -> Iterator[tuple[Notifier, Notifier]]:
    with Store(database) as one, Store(database) as two:
        yield notifier_on(one, vapid_key(one)), notifier_on(two, vapid_key(two))


def test_two_nodes_notify_a_turn_once(nodes: tuple[Notifier, Notifier]) -> None:
    one, two = nodes
    assert one.key == two.key
    with PushService().running() as service:
        browser = service.browser()
        subscribe(one, "ann", browser)
        table = table_in_play(one.store)

        async def both(turn: int) -> list[Notified]:
            return list(
                await asyncio.gather(
                    *(n.notify(table, turn, "ann", here=False, others=["Bob"]) for n in nodes)
                )
            )

        for turn in (5, 9, 14):
            results = asyncio.run(both(turn))
            assert sorted(r.sent for r in results) == [0, 1], results
            push = service.next()
            vapid_claims(push, one.key.public_key, service.origin)
            assert browser.read(push)["title"] == "Your turn"
        service.nothing_more()
