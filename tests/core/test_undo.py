"""Taking back the last placement: an event in the log, so replay and records stay exact."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee import Category, Game, IllegalMove, ScriptedDice, Undone
from yahtzee.core.events import event_from_dict, event_to_dict


def solo(*rolls: str) -> Game:
    return Game(["Ann"], "official", ScriptedDice(list(rolls)))


def test_undo_reopens_the_box_with_the_same_dice_and_rolls_left() -> None:
    game = solo("22226", "22226", "33333")
    game.roll()
    game.roll("2222")
    before = game.state
    game.score(Category.SIXES)
    placed = game.undo()
    assert (placed.category, placed.points) == (Category.SIXES, 6)
    assert game.state == before
    assert game.cards[0][Category.SIXES] is None
    assert game.dice is not None and game.dice.faces == (2, 2, 2, 2, 6)
    assert game.turn is not None and game.turn.rolls_left == 1
    assert game.event_log[-1] == Undone(0)
    game.score(Category.TWOS)  # the placement made instead
    assert game.cards[0].total == 8


def test_replay_of_a_log_with_an_undo_gives_the_same_game() -> None:
    game = solo("22226", "33333")
    game.roll()
    game.score(Category.CHANCE)
    game.undo()
    game.score(Category.TWOS)
    game.roll()
    again = Game.replay(game.events)
    assert again == game
    assert again.cards[0][Category.CHANCE] is None


def test_undo_event_round_trips_through_json() -> None:
    assert event_from_dict(event_to_dict(Undone(2))) == Undone(2)
    assert event_to_dict(Undone(1)) == {"type": "undo", "player": 1}


def test_no_undo_after_the_next_roll() -> None:
    game = solo("22226", "33333")
    game.roll()
    game.score(Category.TWOS)
    game.roll()
    assert not game.can_undo()
    with pytest.raises(IllegalMove, match="until the next roll"):
        game.undo()


def test_no_undo_twice_and_none_before_any_placement() -> None:
    game = solo("22226")
    with pytest.raises(IllegalMove):
        game.undo()
    game.roll()
    game.score(Category.TWOS)
    game.undo()
    with pytest.raises(IllegalMove):
        game.undo()


def test_only_the_player_who_placed_may_take_it_back() -> None:
    game = Game(["Ann", "Bob"], "official", ScriptedDice(["22226"]))
    game.roll()
    game.score(Category.TWOS)
    assert game.current_player == 1
    with pytest.raises(IllegalMove, match="Only the player who filled the box"):
        game.undo(player=1)
    assert game.can_undo(player=0)
    game.undo(player=0)
    assert game.current_player == 0


def test_no_undo_once_the_game_has_ended() -> None:
    game = Game(1, dice=ScriptedDice(["11111"] * 13))
    for category in Category:
        game.roll()
        game.score(category)
    assert game.is_over
    with pytest.raises(IllegalMove, match="game is over"):
        game.undo()


def test_a_log_with_an_undo_that_was_not_allowed_is_refused() -> None:
    game = solo("22226", "33333")
    game.roll()
    game.score(Category.TWOS)
    game.roll()
    events = [*game.events, {"type": "undo", "player": 0}]
    with pytest.raises(Exception, match="not legal"):
        Game.replay(events)


def test_undo_of_a_yahtzee_bonus_takes_the_bonus_back() -> None:
    game = solo("66666", "66666")
    game.roll()
    game.score(Category.YAHTZEE)
    game.roll()
    game.score(Category.SIXES)
    assert game.cards[0].yahtzee_bonus == 100
    game.undo()
    assert game.cards[0].yahtzee_bonus == 0
    assert game.cards[0][Category.SIXES] is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=40), st.integers(0, 2**31))
def test_any_undo_leaves_the_state_as_before_the_placement(picks: list[int], seed: int) -> None:
    """Play at random, taking back placements now and then: every undo restores exactly the
    state before the placement, and the log replays to the same game."""

    game = Game(["A", "B"], "official", random.Random(seed))
    for pick in picks:
        if game.is_over:
            break
        actions = list(game.legal_actions())
        action = actions[pick % len(actions)]
        before = game.state
        game.play(action)
        if pick % 3 == 0 and game.can_undo():
            game.undo()
            assert game.state == before
    assert Game.replay(game.events) == game
