"""Offline games in the records: records of schema 0019 upgrade to 0020 (their games not
offline, no upload remembered) and back down, on both backends; on PostgreSQL, the same
upload kept by many at once keeps one game, and an account's deletion forgets its uploads
but leaves their games."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import func, inspect, select, text

from tests.store.conftest import new_database
from tests.store.test_account_records import new_account
from tests.store.test_migrations import finished_game
from yahtzee.store import Seat, Store, migrate
from yahtzee.store import accounts as account_records
from yahtzee.store.engine import make_engine
from yahtzee.store.offline_games import KeptOffline, OfflineRecord, keep_offline
from yahtzee.store.schema import games, offline_games, seats

RACERS = 8


def test_records_of_0019_upgrade_with_their_games_not_offline(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0019")
    stamp = datetime(2026, 4, 1, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(
            text("INSERT INTO games (id, rules, seed, status, created_at, updated_at, "
                 "finished_at, event_count, hints_used) VALUES ('g-1', 'official', NULL, "
                 "'finished', :t, :t, :t, 0, false)"),
            {"t": stamp},
        )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
            assert c.execute(select(games.c.offline)).scalars().all() == [False]
            assert c.execute(select(func.count()).select_from(offline_games)).scalar() == 0
        assert store.summary("g-1").offline is False
        from alembic import command

        with store.engine.begin() as c:
            command.downgrade(migrate.alembic_config(c), "0019")
        with store.engine.connect() as c:
            assert "offline_games" not in inspect(c).get_table_names()
            assert "offline" not in {col["name"] for col in inspect(c).get_columns("games")}
        migrate.upgrade(store.engine)
        assert store.summary("g-1").offline is False


def record(account_id: str, client_id: str) -> OfflineRecord:
    game = finished_game(7)
    return OfflineRecord(
        account_id, client_id, "d" * 64, game, (Seat("Ann"), Seat("Bob")), 0,
        datetime(2026, 5, 1, tzinfo=UTC),
    )  # fmt: skip


def test_the_same_upload_kept_by_many_at_once_keeps_one_game_on_postgresql(
    postgres_admin_url: str,
) -> None:
    with Store(new_database(postgres_admin_url)) as store:
        ann = new_account(store)
        upload = record(ann.id, str(uuid.uuid4()))
        together = threading.Barrier(RACERS, timeout=30)

        def keep() -> KeptOffline:
            together.wait()
            return keep_offline(store, upload)

        with ThreadPoolExecutor(RACERS) as pool:
            kept = [f.result(timeout=120) for f in [pool.submit(keep) for _ in range(RACERS)]]
        assert sum(k.new for k in kept) == 1
        assert len({k.game_id for k in kept}) == 1
        game_id = kept[0].game_id
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(games)).scalar() == 1
            assert c.execute(select(func.count()).select_from(offline_games)).scalar() == 1
            mine = c.execute(select(seats.c.account_id).where(seats.c.game_id == game_id))
            assert list(mine.scalars()) == [ann.id, None]
        summary = store.summary(game_id)
        assert (summary.offline, summary.status) == (True, "finished")
        assert store.load(game_id).events == upload.game.events
        assert account_records.delete_account(store, ann.id)
        with store.engine.connect() as c:  # the upload forgotten, its game kept
            assert c.execute(select(func.count()).select_from(offline_games)).scalar() == 0
        assert store.summary(game_id).offline is True
