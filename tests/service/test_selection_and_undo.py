"""The dice selected to keep are saved as they are selected; taking back a placement."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from yahtzee import BotSpec, Category, IllegalMove, Keep, RuleSet, ScriptedDice, Undone
from yahtzee.service import GameSession
from yahtzee.store import Seat, Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'r.db'}") as opened:
        yield opened


def solo(store: Store, *rolls: str, seats: list[Seat] | None = None) -> GameSession:
    return GameSession.new(
        seats or [Seat("Ann")], RuleSet.official(), store=store, dice=ScriptedDice(list(rolls))
    )


def test_regression_resume_keeps_the_last_selection_not_the_previous_keep(store: Store) -> None:
    """Issue 13.1: dice 2 2 2 2 6, 1 roll left, dice 1-4 selected, the process killed:
    after resume dice 1-4 are still selected (not the 1-3 kept for the last roll)."""
    session = solo(store, "22256", "22226")
    session.roll()
    session.roll(Keep.parse("222"))
    assert session.held == (True, True, True, False, False)  # the last keep: first matches
    session.select([True, True, True, True, False])
    assert session.game_id is not None
    resumed = GameSession.resume(store, session.game_id)  # as a new process would
    assert resumed.held == (True, True, True, True, False)
    assert resumed.keep == Keep.parse("2222")


def test_a_selection_belongs_to_the_dice_it_was_made_for(store: Store) -> None:
    session = solo(store, "22356", "22226", "11111")
    session.roll()
    session.select([True, True, False, False, False])
    session.roll(session.keep)
    # new dice: the selection made for the old ones is gone; the kept dice stay held
    assert session.held == (True, True, False, False, False)
    assert session.game_id is not None
    assert GameSession.resume(store, session.game_id).held == session.held


def test_nothing_to_select_without_rolls_left_or_dice(store: Store) -> None:
    session = solo(store, "22356", "22356", "22356")
    with pytest.raises(IllegalMove):
        session.select([True] * 5)
    session.roll()
    with pytest.raises(IllegalMove):
        session.select([True] * 4)
    session.roll(Keep.NONE)
    session.roll(Keep.NONE)
    assert session.held == (False,) * 5
    with pytest.raises(IllegalMove):
        session.select([True] * 5)


def test_undo_in_a_solo_game_is_recorded_and_resumes_exactly(store: Store) -> None:
    session = solo(store, "22226", "33333")
    session.roll()
    session.score(Category.SIXES)
    assert session.can_undo
    placed = session.undo()
    assert placed.category is Category.SIXES
    assert isinstance(session.game.event_log[-1], Undone)
    assert session.game_id is not None
    resumed = GameSession.resume(store, session.game_id)
    assert resumed.game == session.game
    assert resumed.game.cards[0][Category.SIXES] is None
    assert store.event_log(session.game_id)[-1] == {"type": "undo", "player": 0}


def test_undo_is_off_against_others_unless_the_game_allows_it(store: Store) -> None:
    seats = [Seat("Ann"), Seat("Bob")]
    session = solo(store, "22226", seats=seats)
    session.roll()
    session.score(Category.TWOS)
    assert not session.can_undo
    with pytest.raises(IllegalMove, match="off in this game"):
        session.undo()
    allowed = GameSession.new(seats, RuleSet.official(), dice=ScriptedDice(["22226"]), undo=True)
    allowed.roll()
    allowed.score(Category.TWOS)
    assert allowed.can_undo
    allowed.undo()


def test_a_bots_placement_is_never_taken_back(store: Store) -> None:
    bot = BotSpec.at_level(5)
    session = GameSession.new(
        [Seat("Ann"), Seat(bot.seat_name(1), bot)], RuleSet.official(), seed=3, undo=True
    )
    session.roll()
    session.score(Category.CHANCE)
    session.undo()  # Ann's own: allowed
    session.score(Category.CHANCE)
    while (session.current == 1 and session.game.dice is None) or session.is_bot(session.current):
        move = session.play_bot(review=False)
        if move.placement is not None:
            break
    assert not session.can_undo
    with pytest.raises(IllegalMove, match="computer player"):
        session.undo()


def test_the_review_counts_the_placement_made_instead(store: Store) -> None:
    session = solo(store, *(["11111"] * 14))
    session.roll()
    session.score(Category.CHANCE)
    session.undo()
    for category in Category:
        if session.game.dice is None:
            session.roll()
        session.score(category)
    assert session.is_over
    (review,) = session.review()
    assert len(review.decisions) == 13  # one per box: the taken-back one is not counted


def test_a_bot_waits_while_the_placement_before_its_turn_may_be_taken_back() -> None:
    """Issue 50.3: `bot_waits` tells a face to hold the bot back until the player who
    placed goes on: only where undo is on, a human's placement, and until the bot rolls."""
    bot = BotSpec.at_level(3)
    seats = [Seat("Ann"), Seat(bot.seat_name(1), bot)]
    session = GameSession.new(seats, RuleSet.official(), seed=3, undo=True)
    assert not session.bot_waits
    session.roll()
    session.score(Category.CHANCE)
    assert session.bot_waits
    session.undo()
    assert not session.bot_waits  # Ann's turn again
    session.score(Category.CHANCE)
    session.play_bot(review=False)  # its first roll: too late to take it back
    assert not session.bot_waits and not session.can_undo
    off = GameSession.new(seats, RuleSet.official(), seed=3)
    off.roll()
    off.score(Category.CHANCE)
    assert not off.bot_waits  # undo off: the bot plays at once


def test_entered_dice_after_a_roll_said_are_the_next_roll() -> None:
    """Issue 50.6: which roll new dice are, as a player at the table means them."""
    session = GameSession.new([Seat("Ann")], RuleSet.official(), entered=True)
    assert session.next_roll is None  # the turn's first dice: as said, or the last roll
    session.enter_dice("11234", 1)
    assert session.next_roll == 2 and session.said_roll == 1
    session.enter_dice("11166", session.next_roll)
    assert session.next_roll == 3 and session.said_roll == 2
    session.enter_dice("11166", session.said_roll)  # a correction: the same roll
    assert session.game.turn is not None and session.game.turn.rolls == 2
    session.enter_dice("11666", session.next_roll)
    assert session.next_roll is None and session.said_roll == 3  # no roll is left
    session.enter_dice("12345")
    assert session.next_roll is None and session.said_roll is None  # not said: the last
    rolled = GameSession.new([Seat("Ann")], RuleSet.official(), seed=1)
    rolled.roll()
    assert rolled.next_roll is None  # the program rolls: nothing to say
