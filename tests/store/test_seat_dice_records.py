"""A table's game of each seat's own dice in the records (issue 49, item 1): started in one
call (on PostgreSQL the function of migration 0013 takes its seed), read back after a
restart with its own seed, drawn per seat as its start event says, and every roll checks
against the seed once the game is over (both backends)."""

from __future__ import annotations

import random
import time
import uuid
from datetime import UTC, datetime

from tests.store.test_table_records import lobby_table
from yahtzee.core import Game, Keep, RandomDice, RuleSet, SeatDice, check_rolls
from yahtzee.store import Seat, Store
from yahtzee.store import tables as records
from yahtzee.store.daily import revealed_dice_seed


def test_a_tables_game_goes_on_with_each_seats_own_dice_after_a_restart(db_url: str) -> None:
    decide = random.Random(5)
    with Store(db_url) as store:
        table = lobby_table()
        assert records.create_table(store, table, records.Quota(time.time() - 60, 5))
        seated = (table.seats[0], records.TableSeatRecord(1, "Bob", None, "b" * 64))
        records.save_table_seat(store, table.id, seated[1], only_if_open=True)
        source, game_id = SeatDice(), str(uuid.uuid4())
        game = Game(["Ann", "Bob"], RuleSet.official(), source)
        assert game.events[0]["draw"] == "seat"
        assert records.start_table(
            store, table.id, seated, game_id=game_id, game=game,
            seats=[Seat("Ann"), Seat("Bob")],
        ) is None  # fmt: skip
        for _ in range(7):
            game.play(decide.choice(list(game.legal_actions())))
        store.save(game_id, game)
        assert revealed_dice_seed(store, game_id, datetime.now(UTC).date()) is None
    with Store(db_url) as store:  # after a restart: another dice source is offered
        again = store.resumable(game_id, RandomDice(1)).game
        assert isinstance(again.dice_source, SeatDice)
        assert again.dice_source.seed == source.seed and again.events == game.events
        while not again.is_over:
            action = decide.choice(list(again.legal_actions()))
            if isinstance(action, Keep):  # the same dice as the game before the restart
                assert again.roll(action) == game.roll(action)
            else:
                again.play(action)
                game.play(action)
            store.save(game_id, again)
        seed = revealed_dice_seed(store, game_id, datetime.now(UTC).date())
        assert seed == source.seed
        check_rolls(seed, store.event_log(game_id))
