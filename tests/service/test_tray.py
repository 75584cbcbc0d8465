"""The dice as they lie: held dice keep their places through a roll (issue 26, item 2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yahtzee.core import Dice, Game, IllegalMove, InvalidInput, Keep, RandomDice, Rolled
from yahtzee.service.tray import Tray, check_slots, follow, tray_of

faces = st.lists(st.integers(1, 6), min_size=5, max_size=5)


def test_held_sixes_in_the_last_places_stay_there_regression_held_dice_jump() -> None:
    # the bug: dice drawn sorted, so held sixes in places 4-5 moved to 3-4 beside a new 6
    tray = Tray((2, 3, 5, 6, 6)).holding([3, 4])
    after = tray.thrown(Keep.parse("66"), Dice.parse("16666"))
    assert after.faces[3:] == (6, 6)
    assert after.held == {3, 4}
    assert sorted(after.faces) == [1, 6, 6, 6, 6]
    assert after.faces[:3] == (1, 6, 6)  # the thrown dice land lowest first


def test_of_equal_faces_the_held_one_keeps_its_place() -> None:
    tray = Tray((6, 1, 2, 3, 6)).holding([4])
    after = tray.thrown(Keep.parse("6"), Dice.parse("12346"))
    assert after.faces[4] == 6 and after.held == {4}
    assert after.faces[:4] == (1, 2, 3, 4)


@given(faces, st.sets(st.integers(0, 4)), faces)
def test_a_roll_moves_only_the_dice_thrown(
    before: list[int], held: set[int], new: list[int]
) -> None:
    tray = Tray(tuple(before)).holding(held)
    kept = tray.kept
    thrown = list(new[: 5 - len(held)])
    dice = Dice([*kept.faces, *thrown])
    after = tray.thrown(kept, dice)
    assert all(after.faces[slot] == before[slot] for slot in held)
    assert sorted(after.faces) == list(dice.faces)
    assert after.held == held


def test_places_are_checked() -> None:
    assert check_slots([4, 0]) == (0, 4)
    for bad in ([5], [-1], [1, 1], [True], [1.0], ["2"]):
        with pytest.raises(InvalidInput):
            check_slots(bad)  # type: ignore[list-item]
    with pytest.raises(IllegalMove):
        Tray().holding([0])


def test_a_placement_or_an_unknown_roll_lays_the_dice_out_anew() -> None:
    game = Game(["Ann"], dice=RandomDice(3))
    game.roll()
    tray = tray_of(game)
    assert list(tray.faces) == list(game.turn.dice.faces)  # type: ignore[union-attr]
    assert not tray.held
    dice = game.turn.dice  # type: ignore[union-attr]
    keep = Keep.of(dice.faces[:2])
    game.roll(keep)
    rolled = game.event_log[-1]
    assert isinstance(rolled, Rolled)
    after = follow(Tray(tray.faces[::-1]).holding([3, 4]), game, [rolled], (3, 4))
    assert sorted(after.faces) == list(game.turn.dice.faces)  # type: ignore[union-attr]
    # a roll that does not follow from the row (another node's, say): the game's order
    assert follow(Tray((1, 1, 1, 1, 1)), game, [rolled]) == tray_of(game)
