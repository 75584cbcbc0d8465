"""Turn-by-turn tables in the records, on each backend: the timeout rule written with the
table (PostgreSQL's one-call create writes only the default rule: another goes the
SQLite way), each seat's missed turns and whether it is out, the decision's deadline
and the tables due by it, and those a restart leaves in the records (migration 0017)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import text

from yahtzee.core import BotSpec
from yahtzee.store import Store, migrate
from yahtzee.store import tables as records
from yahtzee.store.engine import make_engine
from yahtzee.store.values import TableRecord, TableSeatRecord

DAY = 86400
NOW = 1_900_000_000.0


def table(n: int, *, timer: int | None, rule: str = "bot", status: str = "lobby") -> TableRecord:
    seats = (TableSeatRecord(0, "Ann", None, "a" * 64), TableSeatRecord(1, "Bob", None, "b" * 64))
    return TableRecord(
        f"table-{n}", "official", True, timer, f"invite-{n}", f"watch-{n}", "10.0.0.1",
        status, None, seats, NOW, timeout_rule=rule, timeout_level=2, timeout_missed=4,
    )  # fmt: skip


def test_the_rule_the_seats_and_the_deadline_are_kept(db_url: str) -> None:
    with Store(db_url) as store:
        for n, (timer, rule) in enumerate([(DAY, "out"), (DAY, "bot"), (60, "bot"), (None, "bot")]):
            assert records.create_table(store, table(n, timer=timer, rule=rule))
        row = records.load_table(store, "table-0")
        assert row is not None
        assert (row.timeout_rule, row.timeout_level, row.timeout_missed) == ("out", 2, 4)
        assert row.deadline is None and row.seats[1].missed == 0 and not row.seats[1].out

        out = TableSeatRecord(1, "Bob", BotSpec.at_level(2), None, missed=4, out=True)
        assert records.save_table_seat(store, "table-0", out, NOW)
        assert records.load_table(store, "table-0").seats[1] == out  # type: ignore[union-attr]

        assert not records.away_tables(store, 600)  # (in the lobby: loaded at a restart)
        with store.engine.begin() as c:  # in play (as a start leaves them)
            c.execute(text("UPDATE tables SET status = 'playing'"))
        records.set_deadline(store, "table-0", NOW + DAY)
        records.set_deadline(store, "table-1", NOW + 2 * DAY)
        assert records.load_table(store, "table-0").deadline == NOW + DAY  # type: ignore[union-attr]
        assert records.due_tables(store, NOW + DAY - 1) == []
        assert records.due_tables(store, NOW + 2 * DAY) == ["table-0", "table-1"]

        assert records.away_tables(store, 600)  # a restart loads the others only
        loaded = {r.id for r in records.open_tables(store, timer_at_most=600)}
        assert loaded == {"table-2", "table-3"}

        records.set_table_status(store, "table-0", records.FINISHED, None, NOW)
        assert records.load_table(store, "table-0").deadline is None  # type: ignore[union-attr]
        assert records.due_tables(store, NOW + 2 * DAY) == ["table-1"]


def test_tables_recorded_before_turn_by_turn_get_the_default_rule(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0015")
    stamp = datetime(2026, 5, 6, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(
            text("INSERT INTO tables (id, rules, hints_allowed, turn_timer, invite_token, "
                 "spectator_token, status, game_id, owner, created_at, active_at, sitting) "
                 "VALUES ('t', 'official', true, 30, 'i', 's', 'lobby', NULL, 'o', :t, :t, 't')"),
            {"t": stamp},
        )  # fmt: skip
        c.execute(text("INSERT INTO table_seats (table_id, seat, name, bot, token_hash) "
                       "VALUES ('t', 0, 'Ann', NULL, 'h')"))  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:
        row = records.load_table(store, "t")
        assert row is not None
        assert (row.timeout_rule, row.timeout_level, row.timeout_missed, row.deadline) == (
            "bot", 3, 3, None,
        )  # fmt: skip
        assert (row.seats[0].missed, row.seats[0].out) == (0, False)
