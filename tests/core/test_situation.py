from __future__ import annotations

import pytest

from yahtzee import Category, Dice, Game, InvalidInput, Scorecard, ScriptedDice, Situation


def test_notation_round_trips() -> None:
    situation = Situation.parse("13356 2 aces=3 fh=25 yahtzee=50 bonus=100")
    assert situation.dice == Dice.parse("13356")
    assert situation.rolls_left == 2
    assert situation.card[Category.ONES] == 3 and situation.card.yahtzee_bonus == 100
    assert str(situation) == "13356 2 1s=3 fh=25 yz=50 bonus=100"
    assert Situation.parse(str(situation)) == situation
    assert str(Situation.parse("1 3 3 5 6 r1")) == "13356 1"


def test_every_box_code_round_trips() -> None:
    boxes = {c.key: 0 for c in Category if c is not Category.CHANCE}
    situation = Situation(Dice.parse("66666"), 0, Scorecard.from_dict({"boxes": boxes}))
    assert Situation.parse(str(situation)) == situation
    assert str(situation).split()[2:] == [f"{c.code}=0" for c in Category][:-1]


@pytest.mark.parametrize(
    "text",
    ["", "13356", "13356 3", "13356 2 fh", "13356 2 fh=24", "13356 2 zz=1", "1335 2",
     "13356 2 bonus=100", "13356 2 fh=25 fh=25", "13356 x"],
)  # fmt: skip
def test_bad_notation(text: str) -> None:
    with pytest.raises(InvalidInput):
        Situation.parse(text)


def test_a_complete_card_has_no_situation() -> None:
    card = Scorecard(tuple([0] * 12 + [5]))
    with pytest.raises(InvalidInput, match="complete"):
        Situation(Dice.parse("12345"), 0, card)


def test_game_situation() -> None:
    game = Game(1, dice=ScriptedDice(["12345"]))
    assert game.situation() is None
    game.roll()
    assert game.situation() == Situation(Dice.parse("12345"), 2, Scorecard.empty())
