"""Web Push in the records, on SQLite and PostgreSQL: the VAPID key made once for every
node, subscriptions by account, and each turn claimed once."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from tests.store.test_account_records import new_account
from yahtzee.store import Store, accounts, tables
from yahtzee.store import push as records
from yahtzee.store.push import PushSubscription

NOW = datetime(2026, 12, 6, tzinfo=UTC)


def subscription(account: str, n: int, minutes: int = 0) -> PushSubscription:
    when = NOW + timedelta(minutes=minutes)
    return PushSubscription(account, f"https://push.example/{n}", f"key{n}", f"auth{n}", when)


def table_in_play(store: Store, status: str = tables.PLAYING) -> str:
    table_id = str(uuid.uuid4())
    seat = tables.TableSeatRecord(0, "Ann", None, "a" * 64)
    record = tables.TableRecord(
        table_id, "official", True, None, uuid.uuid4().hex, uuid.uuid4().hex, "10.0.0.1",
        status, None, (seat,),
    )  # fmt: skip
    assert tables.create_table(store, record)
    return table_id


def test_a_setting_is_made_once_and_every_node_reads_that_one(db_url: str) -> None:
    with Store(db_url) as one, Store(db_url) as other:
        made = iter(["first", "second"])
        assert records.setting(one, "vapid_private_key", lambda: next(made)) == "first"
        assert records.setting(other, "vapid_private_key", lambda: next(made)) == "first"


def test_subscriptions_by_account_newest_first_one_row_per_endpoint(db_url: str) -> None:
    with Store(db_url) as store:
        records.add_subscription(store, subscription("ann", 1, 0))
        records.add_subscription(store, subscription("ann", 2, 1))
        records.add_subscription(store, subscription("bob", 3, 2))
        assert [s.endpoint for s in records.subscriptions_of(store, "ann")] == [
            "https://push.example/2", "https://push.example/1",
        ]  # fmt: skip
        # the same browser's endpoint, now Bob's: it moves to him
        records.add_subscription(store, subscription("bob", 1, 3))
        assert [s.endpoint for s in records.subscriptions_of(store, "ann")] == [
            "https://push.example/2"
        ]
        assert len(records.subscriptions_of(store, "bob")) == 2
        assert not records.remove_subscription(store, "ann", "https://push.example/1")
        assert records.remove_subscription(store, "bob", "https://push.example/1")
        records.drop_subscription(store, "https://push.example/2")
        assert records.subscriptions_of(store, "ann") == []


def test_an_account_keeps_its_newest_subscriptions(db_url: str) -> None:
    with Store(db_url) as store:
        for n in range(records.KEPT_PER_ACCOUNT + 3):
            records.add_subscription(store, subscription("ann", n, n))
        kept = records.subscriptions_of(store, "ann")
        assert len(kept) == records.KEPT_PER_ACCOUNT
        assert kept[-1].endpoint == "https://push.example/3"


def test_a_turn_is_claimed_once_and_an_earlier_one_no_more(db_url: str) -> None:
    with Store(db_url) as store, Store(db_url) as other:
        table = table_in_play(store)
        assert records.claim_turn(store, table, 7, "ann")
        assert not records.claim_turn(other, table, 7, "ann")
        assert records.claim_turn(other, table, 9, None)
        assert not records.claim_turn(store, table, 7, "ann")  # a late node's older turn


def test_many_claims_of_one_turn_at_once_one_wins(db_url: str) -> None:
    with Store(db_url) as store:
        table = table_in_play(store)
        with ThreadPoolExecutor(8) as pool:
            won = list(pool.map(lambda _: records.claim_turn(store, table, 5, "ann"), range(16)))
        assert won.count(True) == 1


def test_the_games_waiting_for_an_account_are_the_tables_in_play_whose_latest_turn_is_its(
    db_url: str,
) -> None:
    with Store(db_url) as store:
        first, second, third = (table_in_play(store) for _ in range(3))
        over = table_in_play(store, tables.FINISHED)
        for table in (first, second, third, over):
            records.claim_turn(store, table, 3, "ann")
        records.claim_turn(store, third, 5, None)  # a guest's turn there now
        assert records.waiting_tables(store, "ann") == 2
        assert records.waiting_tables(store, "bob") == 0


def test_deleting_an_account_forgets_its_subscriptions_and_turns(db_url: str) -> None:
    with Store(db_url) as store:
        account = new_account(store).id
        records.add_subscription(store, subscription(account, 1))
        records.add_subscription(store, subscription("bob", 2))
        records.claim_turn(store, table_in_play(store), 3, account)
        assert accounts.delete_account(store, account)
        assert records.subscriptions_of(store, account) == []
        assert records.waiting_tables(store, account) == 0
        assert len(records.subscriptions_of(store, "bob")) == 1
