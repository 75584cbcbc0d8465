"""Accounts in the records (both backends): one account per look-alike name, sessions,
single-use recovery codes and challenges, a table's seats by account (on PostgreSQL too,
where a table is made and started by the functions of migration 0013), the seats a guest
hands over, and an account's deletion, which leaves the games as they were played."""

from __future__ import annotations

import dataclasses
import time
import uuid

from sqlalchemy import func, select

from tests.store.test_table_records import lobby_table, start
from yahtzee.store import Store, tables
from yahtzee.store import accounts as records
from yahtzee.store.schema import account_sessions, seats


def new_account(store: Store, name: str = "Ann", key: str | None = None) -> records.AccountRecord:
    account = records.AccountRecord(str(uuid.uuid4()), name, "hash", time.time())
    assert records.create_account(store, account, key or name.lower(), ["c1", "c2"])
    return account


def test_one_account_per_name_key(db_url: str) -> None:
    with Store(db_url) as store:
        ann = new_account(store)
        again = records.AccountRecord(str(uuid.uuid4()), "ANN", None, time.time())
        assert not records.create_account(store, again, "ann", [])
        found = records.account_by_key(store, "ann")
        assert found is not None and (found.id, found.name) == (ann.id, "Ann")
        assert records.account_by_id(store, again.id) is None
        bob = new_account(store, "Bob")
        assert not records.rename_account(store, bob.id, "Ann", "ann")
        assert records.rename_account(store, bob.id, "Robert", "robert")
        assert records.account_by_key(store, "robert") is not None


def test_a_recovery_code_and_a_challenge_are_used_once(db_url: str) -> None:
    with Store(db_url) as store:
        ann = new_account(store)
        assert records.use_recovery_code(store, ann.id, "c1")
        assert not records.use_recovery_code(store, ann.id, "c1")
        assert records.recovery_codes_left(store, ann.id) == 1
        now = time.time()
        challenge = records.Challenge("abc", "sign_in", None)
        records.put_challenge(store, "k1", challenge, now + 60, now)
        records.put_challenge(store, "k2", challenge, now - 1, now - 100)
        assert records.take_challenge(store, "k1", now) == challenge
        assert records.take_challenge(store, "k1", now) is None
        assert records.take_challenge(store, "k2", now) is None  # expired


def test_failures_count_and_start_again_once_forgotten(db_url: str) -> None:
    with Store(db_url) as store:
        keys = ("name:x", "address:y")
        records.add_failure(store, keys, 100.0, 0.0)
        records.add_failure(store, keys[:1], 200.0, 0.0)
        assert records.failures(store, keys) == {"name:x": (2, 200.0), "address:y": (1, 100.0)}
        records.add_failure(store, keys[:1], 5000.0, 1000.0)
        assert records.failures(store, keys)["name:x"] == (1, 5000.0)
        records.clear_failures(store, keys[:1])
        assert list(records.failures(store, keys)) == ["address:y"]


def test_seats_by_account_from_the_new_table_to_its_game(db_url: str) -> None:
    with Store(db_url) as store:
        ann = new_account(store)
        table = lobby_table()
        host = records_seat(table.seats[0], ann.id)
        table = dataclasses.replace(table, seats=(host, table.seats[1]))
        assert tables.create_table(store, table)
        loaded = tables.load_table(store, table.id)
        assert loaded is not None and loaded.seats[0].account == ann.id
        friend = tables.TableSeatRecord(1, "Bob", None, "b" * 64)
        assert tables.save_table_seat(store, table.id, friend, only_if_open=True)
        found, game_id = start(store, table, (host, friend))
        assert found is None
        assert records.games_of(store, ann.id) == [game_id]
        assert [s.table_id for s in records.seats_of(store, ann.id)] == [table.id]


def records_seat(seat: tables.TableSeatRecord, account: str) -> tables.TableSeatRecord:
    return tables.TableSeatRecord(seat.seat, seat.name, seat.bot, seat.token_hash, account)


def test_a_guest_hands_over_the_seats_of_a_browser(db_url: str) -> None:
    with Store(db_url) as store:
        ann = new_account(store)
        table = lobby_table()
        tables.create_table(store, table)
        friend = tables.TableSeatRecord(1, "Bob", None, "b" * 64)
        tables.save_table_seat(store, table.id, friend, only_if_open=True)
        _, game_id = start(store, table, (table.seats[0], friend))
        assert records.claim_seats(store, ann.id, ["a" * 64, "z" * 64]) == 1
        assert records.games_of(store, ann.id) == [game_id]
        bob = new_account(store, "Bob")
        assert records.claim_seats(store, bob.id, ["a" * 64]) == 0  # anyone's already


def test_deleting_an_account_leaves_its_games(db_url: str) -> None:
    with Store(db_url) as store:
        ann = new_account(store)
        now = time.time()
        records.add_session(store, records.SessionRecord("s" * 64, ann.id, now, now, "agent"))
        table = lobby_table()
        tables.create_table(store, table)
        friend = tables.TableSeatRecord(1, "Bob", None, "b" * 64)
        tables.save_table_seat(store, table.id, friend, only_if_open=True)
        _, game_id = start(store, table, (table.seats[0], friend))
        records.claim_seats(store, ann.id, ["a" * 64])
        assert records.delete_account(store, ann.id)
        assert records.account_by_id(store, ann.id) is None
        assert records.session_of(store, "s" * 64) is None
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(account_sessions)).scalar() == 0
            names = c.execute(select(seats.c.account_id).where(seats.c.game_id == game_id))
            assert list(names.scalars()) == [None, None]
        assert [s.name for s in store.seats_of(game_id)] == ["Ann", "Bob"]
        loaded = tables.load_table(store, table.id)
        assert loaded is not None and loaded.seats[0].account is None
        assert not records.delete_account(store, ann.id)
