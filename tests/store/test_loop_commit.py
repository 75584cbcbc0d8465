"""PostgreSQL's group commit driven by the event loop (`Store.save_many_on_loop`, the
server's path): the same compare-and-set as `Store.save_many`, no thread per batch."""

from __future__ import annotations

import asyncio

import pytest

from tests.store.conftest import new_database
from tests.store.test_compare_and_set import both_rolled, copies, drop_every_connection
from yahtzee.core import Keep
from yahtzee.store import CONFLICT, REPEAT, SAVED, Commit, Outcome, Store, engine
from yahtzee.store.commit import StoreError
from yahtzee.store.pg_commit import LoopCommit, array_text


def on_loop(store: Store, commits: list[Commit]) -> dict[str, Outcome]:
    return asyncio.run(store.save_many_on_loop(commits))


@pytest.fixture
def url(postgres_admin_url: str) -> str:
    return new_database(postgres_admin_url)


def test_the_first_writer_wins_a_repeat_is_answered_and_a_late_writer_is_told(url: str) -> None:
    with Store(url) as store:
        assert store.saves_on_loop
        game_id, mine, theirs, base = both_rolled(store)
        assert on_loop(store, [Commit(game_id, mine, base, "0:a")])[game_id] == Outcome(
            SAVED, base + 1
        )
        late = on_loop(store, [Commit(game_id, theirs, base, "0:b")])[game_id]
        again = on_loop(store, [Commit(game_id, theirs, base, "0:a")])[game_id]
        assert late == Outcome(CONFLICT, base + 1) and again == Outcome(REPEAT, base + 1)
        assert store.event_log(game_id) == mine.events


def test_a_batch_on_the_loop_decides_as_one_in_a_thread(url: str) -> None:
    """One batch: a conflict, a fit and a repeat; both paths answer alike and write the
    same rows."""
    with Store(url) as store:
        outcomes = []
        for save in (store.save_many, lambda commits: on_loop(store, commits)):
            first_id, first, _ = copies(store)
            second_id, second, _ = copies(store)
            third_id, third, other, base = both_rolled(store)
            store.save_many([Commit(third_id, third, base, "0:x")])
            first.roll(Keep.NONE)
            second.roll(Keep.NONE)
            answered = save(
                [
                    Commit(first_id, first, base - 1),
                    Commit(second_id, second, base, "0:y"),
                    Commit(third_id, other, base, "0:x"),
                ]
            )
            outcomes.append([answered[g] for g in (first_id, second_id, third_id)])
            assert store.count_events(second_id) == base + 1
            assert store.event_log(third_id) == third.events
        assert outcomes[0] == outcomes[1]
        assert [o.kind for o in outcomes[1]] == [CONFLICT, SAVED, REPEAT]


def test_a_connection_the_server_dropped_is_replaced_and_nothing_is_lost(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "IDLE_PING_S", 0.0)  # the pool's, dropped too, are replaced
    with Store(url) as store:
        game_id, mine, _ = copies(store)
        base = len(mine.events)

        async def play() -> list[Outcome]:
            mine.roll(Keep.NONE)
            first = await store.save_many_on_loop([Commit(game_id, mine, base, "0:a")])
            await asyncio.to_thread(drop_every_connection, url)
            mine.roll(Keep.NONE)
            second = await store.save_many_on_loop([Commit(game_id, mine, base + 1, "0:b")])
            return [first[game_id], second[game_id]]

        assert asyncio.run(play()) == [Outcome(SAVED, base + 1), Outcome(SAVED, base + 2)]
        assert store.event_log(game_id) == mine.events


def test_each_event_loop_gets_a_connection_of_its_own(url: str) -> None:
    """A store outlives an event loop (tests, a restarted server): the next loop's
    commits do not reach for the last one's connection."""
    with Store(url) as store:
        game_id, mine, _ = copies(store)
        for _ in range(3):
            base = len(mine.events)
            mine.roll(Keep.NONE)
            assert on_loop(store, [Commit(game_id, mine, base)])[game_id].saved
        assert store.event_log(game_id) == mine.events


def test_the_loop_plans_each_statement_for_its_values(url: str) -> None:
    with Store(url) as store:
        game_id, mine, _ = copies(store)

        async def setting() -> str:
            base = len(mine.events)
            mine.roll(Keep.NONE)
            await store.save_many_on_loop([Commit(game_id, mine, base)])
            kept = store._on_loop._connection  # type: ignore[union-attr]
            return str(await kept.fetchval("SHOW plan_cache_mode"))

        assert asyncio.run(setting()) == "force_custom_plan"


def test_libpq_settings_in_the_url_reach_the_loops_connection_too(url: str) -> None:
    """Regression guard: ``connect_timeout`` and ``options`` work for the engine's driver
    (libpq); asyncpg would send them to the server as settings, which refuses them."""
    tuned = f"{url}?connect_timeout=5&options=-c%20statement_timeout%3D4000"
    with Store(tuned) as store:
        game_id, mine, _ = copies(store)

        async def setting() -> str:
            base = len(mine.events)
            mine.roll(Keep.NONE)
            assert (await store.save_many_on_loop([Commit(game_id, mine, base)]))[game_id].saved
            kept = store._on_loop._connection  # type: ignore[union-attr]
            return str(await kept.fetchval("SHOW statement_timeout"))

        assert asyncio.run(setting()) == "4s"
        assert store.event_log(game_id) == mine.events


def test_without_asyncpg_the_group_commits_thread_saves(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An install with psycopg alone still serves: its commits go through a thread."""
    monkeypatch.setattr(LoopCommit, "usable", staticmethod(lambda: False))
    with Store(url) as store:
        assert not store.saves_on_loop
        game_id, mine, _ = copies(store)
        base = len(mine.events)
        mine.roll(Keep.NONE)
        assert store.save_many([Commit(game_id, mine, base)])[game_id].saved


def test_sqlite_records_are_not_written_from_the_loop(tmp_path: object) -> None:
    with Store(f"sqlite:///{tmp_path}/records.db") as store:
        assert not store.saves_on_loop
        with pytest.raises(StoreError):
            asyncio.run(store.save_many_on_loop([]))


TRICKY = ["", "NULL", "null", 'a"b', "a\\b", "a,b", "{a}", " x ", "é ü 🎲", '\\"', "a\nb"]


def test_array_texts_reach_postgresql_as_they_were(url: str) -> None:
    """Regression guard for the arrays sent as text (`pg_commit.array_text`): quotes,
    backslashes, commas, braces, spaces, "NULL" as a string and None arrive unchanged."""
    with Store(url) as store, store.engine.connect() as connection:
        texts = connection.exec_driver_sql(
            "SELECT %s::varchar[], %s::int[]",
            (array_text([*TRICKY, None]), array_text([0, -3, 12])),
        ).one()
    assert tuple(texts) == ([*TRICKY, None], [0, -3, 12])
    assert array_text([]) == "{}"
