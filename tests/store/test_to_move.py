"""A table's seat to move (``tables.to_move``, which "my games" reads instead of replaying
each game) is kept with the moves: none written at the start (seat 0 moves first), moved
on by each commit that passes the turn (a roll leaves it), on both commit paths, and
cleared once the table is over (both backends)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from tests.store.conftest import new_database
from tests.store.test_table_records import lobby_table, start
from yahtzee.core import Category, Game, Keep, RandomDice
from yahtzee.store import Commit, Store
from yahtzee.store import tables as records
from yahtzee.store.schema import tables


def to_move(store: Store, table_id: str) -> int | None:
    with store.engine.connect() as c:
        found = c.execute(select(tables.c.to_move).where(tables.c.id == table_id)).scalar()
    return None if found is None else int(found)


def started(store: Store) -> tuple[str, str, Game]:
    """A table of Ann and Bob in play: its id, its game's id and a copy of the game."""
    table = lobby_table()
    records.create_table(store, table)
    seated = (table.seats[0], records.TableSeatRecord(1, "Bob", None, "b" * 64))
    assert records.save_table_seat(store, table.id, seated[1], only_if_open=True)
    found, game_id = start(store, table, seated)
    assert found is None
    return table.id, game_id, Game.replay(store.event_log(game_id), RandomDice(5))


def test_the_seat_to_move_follows_the_placements_not_the_rolls(db_url: str) -> None:
    with Store(db_url) as store:
        table_id, game_id, game = started(store)
        assert to_move(store, table_id) is None  # in play: seat 0, the first, to move
        base = len(game.event_log)
        game.roll(Keep.NONE)
        store.save_many([Commit(game_id, game, base)])
        assert to_move(store, table_id) is None  # a roll passes no turn
        base = len(game.event_log)
        game.score(Category.CHANCE)
        store.save_many([Commit(game_id, game, base)])
        assert to_move(store, table_id) == 1
        base = len(game.event_log)
        game.undo(player=0)
        store.save_many([Commit(game_id, game, base)])
        assert to_move(store, table_id) == 0  # taken back: Ann's turn again


@pytest.fixture
def postgres_url(postgres_admin_url: str) -> str:
    return new_database(postgres_admin_url)


def test_the_loop_commit_keeps_the_seat_to_move_too(postgres_url: str) -> None:
    with Store(postgres_url) as store:
        assert store.saves_on_loop
        table_id, game_id, game = started(store)
        base = len(game.event_log)
        game.roll(Keep.NONE)
        game.score(Category.CHANCE)
        asyncio.run(store.save_many_on_loop([Commit(game_id, game, base)]))
        assert to_move(store, table_id) == 1


def test_nobody_is_to_move_at_a_finished_table(db_url: str) -> None:
    with Store(db_url) as store:
        table_id, game_id, _ = started(store)
        assert records.set_table_status(store, table_id, records.FINISHED, game_id)
        assert to_move(store, table_id) is None
