from __future__ import annotations

import json

import pytest

from yahtzee import Category, Dice, IllegalMove, InvalidInput, Scorecard
from yahtzee.core.scorecard import possible_points

C = Category


def test_empty_card() -> None:
    card = Scorecard.empty()
    assert card.open_boxes == tuple(Category)
    assert (card.upper_subtotal, card.upper_bonus, card.lower_total, card.total) == (0, 0, 0, 0)
    assert not card.is_complete


def test_place_returns_a_new_card_and_keeps_the_old() -> None:
    empty = Scorecard.empty()
    card = empty.place(Dice.parse("33356"), C.THREE_OF_A_KIND)
    assert card[C.THREE_OF_A_KIND] == 20
    assert empty[C.THREE_OF_A_KIND] is None
    with pytest.raises(AttributeError):
        card.yahtzee_bonus = 5  # type: ignore[misc]


def test_totals_are_the_sum_of_their_parts() -> None:
    card = Scorecard.from_dict({"boxes": {
        "ones": 3, "twos": 6, "threes": 9, "fours": 16, "fives": 15, "sixes": 18,
        "three_of_a_kind": 25, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
        "large_straight": 0, "yahtzee": 50, "chance": 22,
    }, "yahtzee_bonus": 200})  # fmt: skip
    assert card.upper_subtotal == 67
    assert card.upper_bonus == 35
    assert card.lower_subtotal == 152
    assert card.lower_total == 352
    assert card.total == 67 + 35 + 352
    assert card.is_complete


def test_dict_round_trip_through_json() -> None:
    card = Scorecard.empty().place(Dice.parse("55555"), C.YAHTZEE)
    card = card.place(Dice.parse("55555"), C.FIVES)
    data = json.loads(json.dumps(card.to_dict()))
    assert data["boxes"]["fives"] == 25 and data["yahtzee_bonus"] == 100
    assert data["total"] == 175
    assert Scorecard.from_dict(data) == card
    assert Scorecard.from_json(card.to_json()) == card


def test_from_dict_accepts_player_names_for_boxes() -> None:
    card = Scorecard.from_dict({"boxes": {"Aces": 3, "fh": 25, "Chance": None}})
    assert card[C.ONES] == 3 and card[C.FULL_HOUSE] == 25 and card[C.CHANCE] is None


def test_possible_points() -> None:
    assert possible_points(C.FULL_HOUSE) == {0, 25}
    assert possible_points(C.CHANCE) == set(range(5, 31))
    assert possible_points(C.THREES) == {0, 3, 6, 9, 12, 15}
    assert possible_points(C.SMALL_STRAIGHT) == {0, 30}


@pytest.mark.parametrize(
    "data",
    [
        {"boxes": {"full_house": 20}},
        {"boxes": {"chance": 0}},
        {"boxes": {"threes": 10}},
        {"boxes": {"threes": "9"}},
        {"boxes": {"yahtzee": True}},
        {"boxes": {"bogus": 3}},
        {"boxes": {"aces": 1, "ones": 1}},
        {"boxes": {"yahtzee": 0}, "yahtzee_bonus": 100},
        {"boxes": {"yahtzee": 50}, "yahtzee_bonus": -100},
        {"boxes": {"aces": 3}, "total": 4},
        {"boxes": []},
        {},
        [],
    ],
)
def test_impossible_card_data_is_invalid_input(data: object) -> None:
    with pytest.raises(InvalidInput):
        Scorecard.from_dict(data)


def test_broken_json() -> None:
    with pytest.raises(InvalidInput, match="not valid JSON"):
        Scorecard.from_json('{"boxes": {')


def test_placing_in_a_filled_box_is_illegal() -> None:
    card = Scorecard.empty().place(Dice.parse("11111"), C.ONES)
    with pytest.raises(IllegalMove, match="Aces is already filled"):
        card.place(Dice.parse("11234"), C.ONES)


def test_open_count_is_the_number_of_open_boxes() -> None:
    card = Scorecard()
    assert card.open_count == len(card.open_boxes) == 13
    for placed, category in enumerate(Category, start=1):
        card = card.place(Dice((1, 2, 3, 4, 6)), category)
        assert card.open_count == len(card.open_boxes) == 13 - placed
