"""A table's records change in one transaction each: a new table is counted against its
owner's quota as it is written, and a table's start records its game and puts the table
in play together, only if the table is still as the starting node has it (both
backends)."""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import event, func, select

from tests.store.conftest import new_database
from yahtzee.core import BotSpec, Game, RandomDice, RuleSet
from yahtzee.store import Seat, Store, StoreError, history
from yahtzee.store import tables as records
from yahtzee.store.schema import games, players

BOT = BotSpec.at_level(5)


def lobby_table(owner: str = "10.0.0.1", rules: str = "official") -> records.TableRecord:
    seats = (
        records.TableSeatRecord(0, "Ann", None, "a" * 64),
        records.TableSeatRecord(1, None),  # open for a friend
    )
    return records.TableRecord(
        str(uuid.uuid4()), rules, True, None, uuid.uuid4().hex, uuid.uuid4().hex, owner,
        records.LOBBY, None, seats, time.time(),
    )  # fmt: skip


def game_count(store: Store) -> int:
    with store.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(games)).scalar_one())


def start(
    store: Store, table: records.TableRecord, expected: tuple[records.TableSeatRecord, ...]
) -> tuple[records.TableRecord | None, str]:
    names = [s.name or "Bot" for s in expected]
    seats = [Seat(n, s.bot) for n, s in zip(names, expected, strict=True)]
    game = Game(names, RuleSet.named(table.rules), RandomDice(1))
    game_id = str(uuid.uuid4())
    found = records.start_table(
        store, table.id, expected, game_id=game_id, game=game, seats=seats, seed=1
    )
    return found, game_id


def test_a_new_table_over_its_owners_quota_is_not_written(db_url: str) -> None:
    with Store(db_url) as store:
        quota = records.Quota(time.time() - 60, 2)
        made = [lobby_table() for _ in range(3)]
        assert [records.create_table(store, t, quota) for t in made] == [True, True, False]
        assert records.load_table(store, made[2].id) is None
        assert records.create_table(store, lobby_table("10.0.0.2"), quota)  # not the owner's
        assert records.count_open(store, "10.0.0.1", time.time() - 60) == 2


def test_a_start_records_the_game_and_the_table_in_play_together(db_url: str) -> None:
    with Store(db_url) as store:
        table = lobby_table()
        records.create_table(store, table)
        seated = (table.seats[0], records.TableSeatRecord(1, "Bot", BOT))
        assert records.save_table_seat(store, table.id, seated[1], only_if_open=True)
        found, game_id = start(store, table, seated)
        assert found is None
        row = records.load_table(store, table.id)
        assert row is not None and (row.status, row.game_id) == (records.PLAYING, game_id)
        assert [s.name for s in store.seats_of(game_id)] == ["Ann", "Bot"]
        assert store.seats_of(game_id)[1].bot == BOT


def test_a_yatzy_tables_start_records_its_games_edition(db_url: str) -> None:
    """The edition is written with the game's row by the start itself (on PostgreSQL, the
    start function of migration 0021): a Yatzy table's game is a Yatzy game, an American
    table's an American one."""
    with Store(db_url) as store:
        started = {}
        for rules in ("yatzy+fh5", "official"):
            table = lobby_table(rules=rules)
            records.create_table(store, table)
            seated = (table.seats[0], records.TableSeatRecord(1, "Bot", BOT))
            assert records.save_table_seat(store, table.id, seated[1], only_if_open=True)
            found, game_id = start(store, table, seated)
            assert found is None
            started[rules] = game_id
        editions = {g.id: g.edition for g in history(store)}
        assert editions == {started["yatzy+fh5"]: "yatzy", started["official"]: "american"}
        assert store.load(started["yatzy+fh5"]).rules.rounds == 15


def test_a_start_from_a_stale_copy_writes_nothing_and_gives_the_records(db_url: str) -> None:
    """Another node seated a friend meanwhile: the start that still has the seat open (or
    another bot in it) records no game, and is given the table as it now is."""
    with Store(db_url) as store:
        table = lobby_table()
        records.create_table(store, table)
        friend = records.TableSeatRecord(1, "Bob", None, "b" * 64)
        assert records.save_table_seat(store, table.id, friend, only_if_open=True)
        stale = (table.seats[0], records.TableSeatRecord(1, "Bot", BOT))
        found, _ = start(store, table, stale)
        assert found is not None and found.seats[1] == friend and found.status == records.LOBBY
        assert game_count(store) == 0
        fresh = records.load_table(store, table.id)
        assert fresh is not None and fresh.game_id is None


def test_a_table_started_already_is_not_started_again(db_url: str) -> None:
    with Store(db_url) as store:
        table = lobby_table()
        records.create_table(store, table)
        seated = (table.seats[0], records.TableSeatRecord(1, "Bob", None, "b" * 64))
        records.save_table_seat(store, table.id, seated[1], only_if_open=True)
        first, game_id = start(store, table, seated)
        again, _ = start(store, table, seated)
        assert first is None and again is not None
        assert (again.status, again.game_id) == (records.PLAYING, game_id)
        assert game_count(store) == 1


def test_a_start_of_a_table_not_in_the_records_is_an_error(db_url: str) -> None:
    with Store(db_url) as store:
        table = lobby_table()
        try:
            start(store, table, table.seats)
        except StoreError as error:
            assert "No table" in str(error)
        else:
            raise AssertionError("a table missing from the records was started")
        assert game_count(store) == 0


def test_a_started_game_holds_its_first_events_and_players_as_any_new_game(db_url: str) -> None:
    """The start writes the game's events so far (its GameStarted) and its players, new and
    known, so that it resumes as it was started (on PostgreSQL through migration 0013's
    function, on SQLite through the statements)."""
    with Store(db_url) as store:
        known = store.start(Game(["Ann", "Cy"], dice=RandomDice(3)))
        table = lobby_table()
        records.create_table(store, table)
        seated = (table.seats[0], records.TableSeatRecord(1, "Newcomer", None, "n" * 64))
        records.save_table_seat(store, table.id, seated[1], only_if_open=True)
        found, game_id = start(store, table, seated)
        assert found is None
        assert store.count_events(game_id) == 1
        resumed = store.resumable(game_id, RandomDice(1))
        assert [type(e).__name__ for e in resumed.game.event_log] == ["GameStarted"]
        assert [s.name for s in resumed.seats] == ["Ann", "Newcomer"]
        assert store.seats_of(known)[0].name == "Ann"  # the same player, not a second Ann
        summary = store.summaries([game_id])[0]
        assert (summary.status, summary.event_count, summary.sitting) == ("active", 1, table.id)


def test_many_tables_started_at_once_with_one_new_name_record_the_player_once(
    db_url: str,
) -> None:
    """Tables on several server nodes starting at the same moment for one new player: each
    starts (the second insert of the name gives way), and the player is recorded once."""
    with Store(db_url) as store:
        made = [lobby_table(f"10.0.0.{i}") for i in range(6)]
        for table in made:
            records.create_table(store, table)
        gate = threading.Barrier(len(made))

        def begin(table: records.TableRecord) -> records.TableRecord | None:
            seated = (records.TableSeatRecord(0, "Firsttimer", None, "f" * 64), table.seats[1])
            records.save_table_seat(store, table.id, seated[0])
            gate.wait(timeout=10)
            return start(store, table, (seated[0], records.TableSeatRecord(1, None)))[0]

        with ThreadPoolExecutor(len(made)) as pool:
            assert list(pool.map(begin, made)) == [None] * len(made)
        assert len(history(store, player="Firsttimer")) == len(made)
        with store.engine.connect() as c:
            named = select(func.count()).select_from(players).where(players.c.name == "Firsttimer")
            assert c.execute(named).scalar_one() == 1


def test_on_postgresql_a_new_table_and_its_start_are_one_statement_each(
    postgres_admin_url: str,
) -> None:
    """A server node makes and starts a table for every game: each is one call of a
    function (migration 0013), one round trip, not a transaction of many statements."""
    with Store(new_database(postgres_admin_url)) as store:
        sent: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
        table = lobby_table()
        assert records.create_table(store, table, records.Quota(time.time() - 60, 5))
        assert [s.split("(")[0].split()[-1] for s in sent] == ["yahtzee_create_table"]
        seated = (table.seats[0], records.TableSeatRecord(1, "Bot", BOT))
        records.save_table_seat(store, table.id, seated[1], only_if_open=True)
        sent.clear()
        assert start(store, table, seated)[0] is None
        assert [s.split("(")[0].split()[-1] for s in sent] == ["yahtzee_start_table"]
