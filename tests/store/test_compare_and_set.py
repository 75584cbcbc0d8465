"""Appending events is a compare-and-set on the log's length: of two writers that
extended one game from the same point only the first is written; an intent recorded
before is answered with its sequence number, never written twice (both backends)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.store.conftest import new_database
from tests.waiting import wait_until
from yahtzee.core import Game, Keep, RandomDice, Score
from yahtzee.store import CONFLICT, REPEAT, SAVED, Commit, Store, engine, history
from yahtzee.store.commit import commit_many
from yahtzee.store.store import now


def copies(store: Store) -> tuple[str, Game, Game]:
    game = Game(["Ann", "Bob"], dice=RandomDice(1))
    game_id = store.start(game)
    return game_id, Game.replay(game.events, RandomDice(2)), Game.replay(game.events, RandomDice(3))


def both_rolled(store: Store) -> tuple[str, Game, Game, int]:
    """Two copies of a recorded game, each a different first roll further."""
    game_id, mine, theirs = copies(store)
    base = len(mine.events)
    mine.roll(Keep.NONE)
    theirs.roll(Keep.NONE)
    return game_id, mine, theirs, base


def test_the_first_writer_wins_and_the_second_is_told_how_far_the_records_are(db_url: str) -> None:
    with Store(db_url) as store:
        game_id, mine, theirs, base = both_rolled(store)
        assert store.save_many([Commit(game_id, mine, base, "0:a")])[game_id].kind == SAVED
        late = store.save_many([Commit(game_id, theirs, base, "0:b")])[game_id]
        assert (late.kind, late.seq) == (CONFLICT, base + 1)
        assert store.event_log(game_id) == mine.events  # nothing of the loser's written


def test_an_intent_recorded_before_is_a_repeat_with_its_sequence_number(db_url: str) -> None:
    with Store(db_url) as store:
        game_id, mine, theirs, base = both_rolled(store)
        store.save_many([Commit(game_id, mine, base, "0:same")])
        again = store.save_many([Commit(game_id, theirs, base, "0:same")])[game_id]
        assert (again.kind, again.seq) == (REPEAT, base + 1)
        mine.roll(Keep.NONE)
        later = store.save_many([Commit(game_id, mine, base + 1, "0:same")])[game_id]
        assert later.kind == REPEAT  # also once the records have moved on
        assert store.count_events(game_id) == base + 1


def test_a_conflict_in_a_batch_leaves_the_other_games_written(db_url: str) -> None:
    with Store(db_url) as store:
        first_id, first, _ = copies(store)
        second_id, second, _ = copies(store)
        base = len(first.events)
        first.roll(Keep.NONE)
        second.roll(Keep.NONE)
        outcomes = store.save_many(
            [Commit(first_id, first, base - 1), Commit(second_id, second, base)]
        )
        assert outcomes[first_id].kind == CONFLICT and outcomes[second_id].kind == SAVED
        assert store.count_events(first_id) == base and store.count_events(second_id) == base + 1


def test_events_since_reads_a_copy_up_to_date(db_url: str) -> None:
    with Store(db_url) as store:
        game_id, mine, behind = copies(store)
        base = len(mine.events)
        mine.roll(Keep.NONE)
        store.save_many([Commit(game_id, mine, base)])
        fresh, at = store.events_since(game_id, len(behind.events))
        behind.extend(fresh)
        assert behind.events == mine.events and at is not None
        assert store.event_counts([game_id, "nope"]) == {game_id: base + 1}


def test_regression_two_games_with_a_new_name_start_at_once(db_url: str) -> None:
    """Two server nodes starting games for one new player at the same moment: both start
    (the second insert of the name gave way), and the player is recorded once."""
    with Store(db_url) as store:
        gate = threading.Barrier(6)

        def begin(index: int) -> str:
            gate.wait(timeout=10)
            return store.start(Game(["Newcomer", f"Other {index}"], dice=RandomDice(index)))

        with ThreadPoolExecutor(6) as pool:
            started = list(pool.map(begin, range(6)))
        assert len(set(started)) == 6
        assert all(store.seats_of(g)[0].name == "Newcomer" for g in started)
        assert len(history(store, player="Newcomer")) == 6


@pytest.mark.parametrize("path", ["thread", "loop"])
def test_regression_a_writer_that_waited_for_the_lock_sees_the_intent_written_meanwhile(
    postgres_admin_url: str, path: str
) -> None:
    """Two nodes commit the same intent at once: the second waits for the game's row,
    which the first holds until its commit; it must then see the first's intent (a
    repeat), not only that the records moved on (a conflict, after which the node would
    apply the intent again). A statement that reads the intents together with taking the
    lock sees the records as they were when it began, and missed it. Both ways of
    committing: the Python decision (a thread's) and PostgreSQL's function (the loop's)."""
    import psycopg

    url = new_database(postgres_admin_url)
    with Store(url) as first, Store(url) as second, ThreadPoolExecutor(1) as pool:
        game_id, mine, theirs, base = both_rolled(first)
        late = [Commit(game_id, theirs, base, "0:same")]
        with first.engine.begin() as connection:  # the first writer, not yet committed
            commit_many(connection, [Commit(game_id, mine, base, "0:same")], now())
            if path == "thread":
                waiting = pool.submit(second.save_many, late)
            else:
                waiting = pool.submit(asyncio.run, second.save_many_on_loop(late))
            with psycopg.connect(url, autocommit=True) as watcher:
                query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                wait_until(
                    lambda: watcher.execute(query).fetchone()[0],  # type: ignore[index]
                    timeout=30,
                    what="the second writer waiting for the game's row",
                )
        outcome = waiting.result(timeout=30)[game_id]
        assert (outcome.kind, outcome.seq) == (REPEAT, base + 1)
        assert first.event_log(game_id) == mine.events


def test_a_commit_after_the_database_dropped_the_kept_connection_is_written(
    postgres_admin_url: str,
) -> None:
    """A connection the server closed meanwhile (a restart, an idle timeout) is replaced,
    and nothing is lost (the loop's kept connection: tests/store/test_loop_commit.py)."""

    url = new_database(postgres_admin_url)
    with Store(url) as store:
        game_id, mine, _ = copies(store)
        base = len(mine.events)
        mine.roll(Keep.NONE)
        assert store.save_many([Commit(game_id, mine, base, "0:a")])[game_id].kind == SAVED
        drop_every_connection(url)
        mine.roll(Keep.NONE)
        again = store.save_many([Commit(game_id, mine, base + 1, "0:b")])[game_id]
        assert (again.kind, again.seq) == (SAVED, base + 2)
        assert store.event_log(game_id) == mine.events


def drop_every_connection(url: str) -> None:
    """What a database restart does to the connections a pool keeps."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def test_a_pooled_connection_the_server_dropped_while_idle_is_replaced(
    postgres_admin_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No ping before each use (a round trip per transaction), but one before using a
    connection that sat idle (here: any), so that a restarted database is no error."""
    monkeypatch.setattr(engine, "IDLE_PING_S", 0.0)
    url = new_database(postgres_admin_url)
    with Store(url) as store:
        game_id, mine, _ = copies(store)
        assert store.event_counts([game_id]) == {game_id: len(mine.events)}
        drop_every_connection(url)
        assert store.event_counts([game_id]) == {game_id: len(mine.events)}


def test_a_game_ended_by_a_group_commit_is_finished_with_its_cards(db_url: str) -> None:
    """The commit that writes a game's last events also closes it and keeps its cards."""
    with Store(db_url) as store:
        game = Game(["Ann", "Bob"], dice=RandomDice(7))
        game_id = store.start(game)
        while not game.is_over:
            base = len(game.event_log)
            game.roll(Keep.NONE)
            game.play(Score(game.placements()[0].category))
            outcome = store.save_many([Commit(game_id, game, base, f"0:{base}")])[game_id]
            assert (outcome.kind, outcome.seq) == (SAVED, len(game.event_log))
        summary = store.summary(game_id)
        assert summary.status == "finished" and summary.finished_at is not None
        assert summary.totals == tuple(card.total for card in game.cards)
        assert summary.event_count == len(game.event_log)
        assert store.event_log(game_id) == game.events


def test_every_connection_plans_each_statement_for_its_values(postgres_admin_url: str) -> None:
    """A plan kept from when the tables were empty scans them whole once they have grown
    (regression: PostgreSQL at 0.6 cores in the cluster benchmark); the pool's connections
    plan for the values at hand (the loop's commit: tests/store/test_loop_commit.py)."""
    url = new_database(postgres_admin_url)
    with Store(url) as store:
        game_id, mine, _ = copies(store)
        base = len(mine.events)
        mine.roll(Keep.NONE)
        store.save_many([Commit(game_id, mine, base, "0:a")])
        with store.engine.connect() as connection:
            mode = connection.exec_driver_sql("SHOW plan_cache_mode").scalar()
        assert mode == "force_custom_plan"
