"""A finished table's rematch is recorded once, by a compare-and-set: of many asking at the
same moment (threads here, server nodes on a site) one table is written and everyone is
given its id; over the owner's quota nothing is written. The sitting goes with each table,
and a game reaches its sitting through its table (both backends)."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from sqlalchemy import func, select

from tests.store.test_table_records import lobby_table, start
from yahtzee.store import Store
from yahtzee.store import tables as records
from yahtzee.store.schema import tables

ASKING = 8


def table_count(store: Store) -> int:
    with store.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(tables)).scalar_one())


def finished(store: Store) -> records.TableRecord:
    """A table whose game was played (its status set so; the game itself is not needed)."""
    table = lobby_table()
    records.create_table(store, table)
    seated = (table.seats[0], records.TableSeatRecord(1, "Bob", None, "b" * 64))
    assert records.save_table_seat(store, table.id, seated[1], only_if_open=True)
    found, game_id = start(store, table, seated)
    assert found is None
    assert records.set_table_status(store, table.id, records.FINISHED, game_id)
    row = records.load_table(store, table.id)
    assert row is not None
    return row


def rematch_of(table: records.TableRecord) -> records.TableRecord:
    return replace(
        lobby_table(table.owner), sitting=table.sitting_id, seats=(
            records.TableSeatRecord(0, "Ann", None, uuid.uuid4().hex * 2),
            records.TableSeatRecord(1, "Bob"),  # kept for Bob
        ),
    )  # fmt: skip


def test_a_rematch_is_recorded_once_and_its_id_given_to_every_later_ask(db_url: str) -> None:
    with Store(db_url) as store:
        old = finished(store)
        assert (old.sitting, old.rematch) == (old.id, None)  # a sitting of its own
        first, second = rematch_of(old), rematch_of(old)
        assert records.create_rematch(store, old.id, first) == first.id
        assert records.create_rematch(store, old.id, second) == first.id
        assert records.load_table(store, second.id) is None
        row = records.load_table(store, old.id)
        assert row is not None and (row.rematch, row.status) == (first.id, records.FINISHED)
        made = records.load_table(store, first.id)
        assert made is not None and made.sitting == old.id and made.status == records.LOBBY
        assert made.seats == first.seats
        assert table_count(store) == 2


def test_many_asking_at_once_make_one_table(db_url: str) -> None:
    with Store(db_url) as store:
        old = finished(store)
        made = [rematch_of(old) for _ in range(ASKING)]
        at_once = threading.Barrier(ASKING)

        def ask(table: records.TableRecord) -> str | None:
            at_once.wait(timeout=30)
            return records.create_rematch(store, old.id, table)

        with ThreadPoolExecutor(ASKING) as pool:
            answers = list(pool.map(ask, made, timeout=60))
        assert len(set(answers)) == 1 and answers[0] in {t.id for t in made}
        assert table_count(store) == 2
        row = records.load_table(store, old.id)
        assert row is not None and row.rematch == answers[0]


def test_a_rematch_over_the_quota_writes_nothing(db_url: str) -> None:
    with Store(db_url) as store:
        old = finished(store)
        records.create_table(store, lobby_table(old.owner))  # one open table already
        quota = records.Quota(time.time() - 60, 1)
        assert records.create_rematch(store, old.id, rematch_of(old), quota) is None
        row = records.load_table(store, old.id)
        assert row is not None and row.rematch is None  # asked again later, it can be made
        again = rematch_of(old)
        assert records.create_rematch(store, old.id, again, records.Quota(time.time(), 5))
        assert table_count(store) == 3


def test_a_game_reaches_its_sitting_through_its_table(db_url: str) -> None:
    with Store(db_url) as store:
        old = finished(store)
        after = rematch_of(old)
        records.create_rematch(store, old.id, after)
        seated = (after.seats[0], records.TableSeatRecord(1, "Bob", None, "c" * 64))
        records.save_table_seat(store, after.id, seated[1], only_if_open=True)
        found, game_id = start(store, after, seated)
        assert found is None
        assert records.sitting_of_game(store, game_id) == old.id
        assert records.sitting_of_game(store, str(old.game_id)) == old.id
        assert records.sitting_games(store, old.id) == [old.game_id, game_id]
        assert records.sitting_of_game(store, "no-such-game") is None
