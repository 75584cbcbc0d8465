"""A database of the first schema version upgrades to the current one, data intact."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from tests.waiting import ended
from yahtzee import Game, RandomDice
from yahtzee.store import Store, migrate, stats, tables
from yahtzee.store.chat import add_line, chat_of
from yahtzee.store.engine import make_engine


def finished_game(seed: int) -> Game:
    import random

    rng = random.Random(seed)
    game = Game(["Ann", "Bob"], dice=RandomDice(seed))
    while not game.is_over:
        game.play(rng.choice(list(game.legal_actions())))
    return game


def write_v1(url: str) -> list[Game]:
    """Fill a database of schema 0001 as that version's code wrote it (plain SQL)."""
    engine = make_engine(url)
    migrate.upgrade(engine, "0001")
    played = [finished_game(1), finished_game(2)]
    stamp = datetime(2026, 1, 2, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(text("INSERT INTO players (id, name, created_at) VALUES (1, 'Ann', :t), "
                       "(2, 'Bob', :t)"), {"t": stamp})  # fmt: skip
        for n, game in enumerate(played):
            game_id = f"00000000-0000-0000-0000-00000000000{n}"
            c.execute(
                text("INSERT INTO games (id, rules, seed, status, created_at, updated_at, "
                     "finished_at, event_count) VALUES (:id, 'official', NULL, 'finished', :t, "
                     ":t, :t, :n)"),
                {"id": game_id, "t": stamp, "n": len(game.events)},
            )  # fmt: skip
            for seat in (0, 1):
                c.execute(
                    text("INSERT INTO seats (game_id, seat, player_id, kind) "
                         "VALUES (:g, :s, :p, 'human')"),
                    {"g": game_id, "s": seat, "p": seat + 1},
                )  # fmt: skip
            for seq, event in enumerate(game.events):
                c.execute(text("INSERT INTO events (game_id, seq, type, data, created_at) VALUES "
                               "(:g, :s, :y, :d, :t)"),
                          {"g": game_id, "s": seq, "y": event["type"], "d": json.dumps(event),
                           "t": stamp})  # fmt: skip
    engine.dispose()
    return played


def test_first_schema_upgrades_with_data_intact(db_url: str) -> None:
    played = write_v1(db_url)
    with Store(db_url) as store:  # opening migrates to the current schema
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
        for n, game in enumerate(played):
            game_id = f"00000000-0000-0000-0000-00000000000{n}"
            assert store.load(game_id) == game
            summary = store.summary(game_id)
            assert summary.totals == tuple(card.total for card in game.cards)
            assert summary.hints_used is False
        ann = {s.player: s for s in stats(store)}["Ann"]
        assert ann.games == 2 and ann.best == max(g.cards[0].total for g in played)
    with Store(db_url) as store:  # and opening again changes nothing
        assert store.count_events() == sum(len(g.events) for g in played)


def test_many_processes_migrate_a_new_database_at_once(db_url: str) -> None:
    code = f"from yahtzee.store import Store; Store({db_url!r}).close(); print('ok')"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(6)]  # fmt: skip
    with ended(*procs):  # none is left running when one fails or times out
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            assert out.strip() == "ok"
    with Store(db_url) as store, store.engine.connect() as c:
        assert migrate.current(c) == migrate.head()


def test_the_head_named_in_the_code_is_the_scripts_head() -> None:
    """A new migration moves `migrate.HEAD` with it (else records at the old head would be
    taken for current without alembic)."""
    assert migrate.head() == migrate.HEAD


def test_records_at_the_head_open_without_alembic(db_url: str) -> None:
    """Opening current records (every process that opens a store) does not import
    alembic; records of an older schema are still migrated (the tests above)."""
    Store(db_url).close()
    code = (
        "import sys; from yahtzee.store import Store; "
        f"Store({db_url!r}).close(); Store({db_url!r}, read_only=True).close(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    with ended(proc):
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.strip() == "[]"


def test_tables_recorded_before_sittings_keep_their_rows_each_a_sitting_of_its_own(
    db_url: str,
) -> None:
    """A database of schema 0008 (tables in the lobby and finished, with their seats)
    upgrades to sittings: every row kept, each table its own sitting, no rematch."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0008")
    stamp = datetime(2026, 3, 4, tzinfo=UTC)
    made = {"t-lobby": "lobby", "t-finished": "finished"}
    with engine.begin() as c:
        for n, (table_id, status) in enumerate(made.items()):
            c.execute(
                text("INSERT INTO tables (id, rules, hints_allowed, turn_timer, invite_token, "
                     "spectator_token, status, game_id, owner, created_at, active_at) VALUES "
                     "(:id, 'official', true, 30, :inv, :spec, :st, NULL, '10.0.0.1', :t, :t)"),
                {"id": table_id, "inv": f"i{n}", "spec": f"s{n}", "st": status, "t": stamp},
            )  # fmt: skip
            c.execute(
                text("INSERT INTO table_seats (table_id, seat, name, bot, token_hash) VALUES "
                     "(:id, 0, 'Ann', NULL, :h), (:id, 1, NULL, NULL, NULL)"),
                {"id": table_id, "h": "a" * 64},
            )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:  # opening migrates to the current schema
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
            stored = c.execute(text("SELECT id, sitting, rematch FROM tables ORDER BY id")).all()
        assert [tuple(r) for r in stored] == [(t, t, None) for t in sorted(made)]
        for table_id, status in made.items():
            row = tables.load_table(store, table_id)
            assert row is not None
            assert (row.status, row.turn_timer, row.sitting, row.rematch) == (
                status, 30, table_id, None,
            )  # fmt: skip
            assert [(s.name, s.token_hash) for s in row.seats] == [("Ann", "a" * 64), (None, None)]


def test_tables_recorded_before_chat_keep_their_rows_and_take_chat_lines(db_url: str) -> None:
    """A database of schema 0009 (a table in the lobby with its seats) upgrades to chat
    in the records: every row kept, no chat yet, and a line said at the old table is
    recorded and read back."""
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0009")
    stamp = datetime(2026, 3, 4, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(
            text("INSERT INTO tables (id, rules, hints_allowed, turn_timer, invite_token, "
                 "spectator_token, status, game_id, owner, created_at, active_at, sitting) "
                 "VALUES ('t-old', 'official', true, NULL, 'i', 's', 'lobby', NULL, "
                 "'10.0.0.1', :t, :t, 't-old')"),
            {"t": stamp},
        )  # fmt: skip
        c.execute(
            text("INSERT INTO table_seats (table_id, seat, name, bot, token_hash) VALUES "
                 "('t-old', 0, 'Ann', NULL, :h), ('t-old', 1, 'Bob', NULL, :h)"),
            {"h": "a" * 64},
        )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:  # opening migrates to the current schema
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
        row = tables.load_table(store, "t-old")
        assert row is not None and (row.status, row.sitting) == ("lobby", "t-old")
        assert [(s.name, s.token_hash) for s in row.seats] == [("Ann", "a" * 64), ("Bob", "a" * 64)]
        assert chat_of(store, "t-old") == []
        add_line(store, "t-old", 1, "Bob", "still here")
        assert [(x.seq, x.name, x.text) for x in chat_of(store, "t-old")] == [
            (1, "Bob", "still here")
        ]


def test_games_recorded_before_sittings_join_their_tables_sittings_or_their_own(
    db_url: str,
) -> None:
    """A database of schema 0010 (two games played at a table and its rematch, one game
    of no table) upgrades to sittings and dice in the game records: the table games share
    their tables' sitting, the other game is a sitting of its own, every game was rolled."""
    write_v1(db_url)
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0010")
    stamp = datetime(2026, 3, 4, tzinfo=UTC)
    with engine.begin() as c:
        for n, (table_id, sitting) in enumerate((("t-1", "t-1"), ("t-2", "t-1"))):
            c.execute(
                text("INSERT INTO tables (id, rules, hints_allowed, turn_timer, invite_token, "
                     "spectator_token, status, game_id, owner, created_at, active_at, sitting) "
                     "VALUES (:id, 'official', true, NULL, :i, :s, 'finished', :g, "
                     "'10.0.0.1', :t, :t, :sit)"),
                {"id": table_id, "i": f"i{n}", "s": f"s{n}", "t": stamp, "sit": sitting,
                 "g": f"00000000-0000-0000-0000-00000000000{n}"},
            )  # fmt: skip
        c.execute(
            text("INSERT INTO games (id, rules, seed, status, created_at, updated_at, "
                 "finished_at, event_count, hints_used) VALUES ('lone', 'official', NULL, "
                 "'active', :t, :t, NULL, 0, false)"),
            {"t": stamp},
        )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
            rows = c.execute(text("SELECT id, sitting, dice FROM games ORDER BY id")).all()
        first, second = (
            "00000000-0000-0000-0000-000000000000",
            "00000000-0000-0000-0000-000000000001",
        )
        assert [tuple(r) for r in rows] == [
            (first, "t-1", "rolled"), (second, "t-1", "rolled"), ("lone", "lone", "rolled"),
        ]  # fmt: skip
        assert tables.sitting_games(store, "t-1") == [first, second]
        assert all(not t.entered for t in (tables.load_table(store, "t-1"),) if t is not None)


def test_regression_a_downgrade_past_0013_drops_both_table_functions(
    postgres_admin_url: str,
) -> None:
    """Migration 0013's downgrade names each function by its arguments: the start's list
    once missed its event arrays, so the downgrade left the function behind."""
    from alembic import command

    from tests.store.conftest import new_database

    query = text("SELECT proname FROM pg_proc WHERE proname LIKE 'yahtzee_%' ORDER BY 1")
    with Store(new_database(postgres_admin_url)) as store:
        with store.engine.connect() as c:
            functions = set(c.execute(query).scalars())
        assert {"yahtzee_create_table", "yahtzee_start_table"} <= functions
        with store.engine.begin() as c:
            command.downgrade(migrate.alembic_config(c), "0012")
        with store.engine.connect() as c:
            assert set(c.execute(query).scalars()) == {"yahtzee_group_commit"}
        migrate.upgrade(store.engine)
        with store.engine.connect() as c:
            assert set(c.execute(query).scalars()) == functions


def test_daily_results_recorded_before_people_take_their_names_keys(db_url: str) -> None:
    """A database of schema 0013 whose day has one person's attempts under two spellings
    (an unfinished ``Vera1``, a finished ``VERA1``) upgrades to one attempt a person: the
    finished one takes the key, the other keeps its row (and its day's leaderboard keeps
    both), and the key then refuses a third spelling."""
    from yahtzee.core import IllegalMove
    from yahtzee.store import Seat
    from yahtzee.store import daily as daily_records

    day = "2026-03-04"
    engine = make_engine(db_url)
    migrate.upgrade(engine, "0013")
    early, late = datetime(2026, 3, 4, 10, tzinfo=UTC), datetime(2026, 3, 4, 11, tzinfo=UTC)
    rows = [  # player, game, day, score, started
        ("Vera1", "g-1", day, None, early),
        ("VERA1", "g-2", day, 200, late),
        ("Bob", "g-3", day, 180, early),
        ("V\u0435ra1", "g-4", "2026-03-03", 150, early),  # a Cyrillic e, the day before
    ]
    with engine.begin() as c:
        for name, game_id, when, score, started in rows:
            n = c.execute(
                text("INSERT INTO players (name, created_at) VALUES (:name, :t) RETURNING id"),
                {"name": name, "t": early},
            ).scalar_one()
            c.execute(
                text("INSERT INTO games (id, rules, seed, status, created_at, updated_at, "
                     "finished_at, event_count, hints_used) VALUES (:id, 'official', NULL, "
                     "'active', :t, :t, NULL, 0, false)"),
                {"id": game_id, "t": early},
            )  # fmt: skip
            c.execute(
                text("INSERT INTO daily_results (day, player_id, game_id, score, loss, "
                     "started_at, finished_at) VALUES (:day, :p, :g, :score, NULL, :t, NULL)"),
                {"day": when, "p": n, "g": game_id, "score": score, "t": started},
            )  # fmt: skip
    engine.dispose()
    with Store(db_url) as store:
        with store.engine.connect() as c:
            assert migrate.current(c) == migrate.head()
            keys = c.execute(text("SELECT game_id, player_key FROM daily_results ORDER BY 1"))
            assert [tuple(r) for r in keys] == [
                ("g-1", None), ("g-2", "veral"), ("g-3", "bob"), ("g-4", "veral"),
            ]  # fmt: skip
        when = datetime(2026, 3, 4).date()
        found = daily_records.attempt_of(store, when, "\uff36era1")
        assert found is not None and (found.game_id, found.player) == ("g-2", "VERA1")
        assert len(daily_records.results_of_day(store, when)) == 3
        game = Game(["vera1"], dice=RandomDice(1))
        with pytest.raises(IllegalMove) as refused:
            daily_records.start_attempt(store, when, "g-5", game, Seat("vera1"))
        assert refused.value.code == "daily_played"
        assert len(daily_records.results_of_day(store, when)) == 3
