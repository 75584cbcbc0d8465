"""Quick score entry's check (issue 27, item 2): the points each box can hold under a rule
set, and a refusal that says what is allowed."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from yahtzee.core import Category, Dice, InvalidInput, RuleSet
from yahtzee.core.entries import allowed_text, check_entry, possible_points
from yahtzee.core.scoring import placements

OFFICIAL = RuleSet.official()


AMERICAN = [name for name in RuleSet.names() if RuleSet.named(name).edition.name == "american"]


@pytest.mark.parametrize("rules", AMERICAN)
def test_golden_points_of_every_box(rules: str) -> None:
    held = {c.key: sorted(possible_points(c, RuleSet.named(rules))) for c in Category}
    for face, key in enumerate(["ones", "twos", "threes", "fours", "fives", "sixes"], 1):
        assert held[key] == [face * n for n in range(6)]
    for key in ("three_of_a_kind", "four_of_a_kind"):
        assert held[key] == [0, *range(5, 31)]
    assert held["chance"] == list(range(5, 31))  # five dice always add up to 5 or more
    assert held["full_house"] == [0, 25]
    assert held["small_straight"] == [0, 30]
    assert held["large_straight"] == [0, 40]
    assert held["yahtzee"] == [0, 50]


@settings(max_examples=300)
@given(
    st.sampled_from(Dice.all()),
    st.sets(st.integers(0, 14), min_size=1),
    st.sampled_from([None, 0, 50]),
    st.sampled_from(RuleSet.names()),
)
def test_every_placement_the_engine_offers_is_one_a_pad_accepts(
    dice: Dice, open_numbers: set[int], yahtzee_box: int | None, rules: str
) -> None:
    rule_set = RuleSet.named(rules)
    edition = rule_set.edition
    open_boxes = {box for box in edition.boxes if box in open_numbers}
    boxes = open_boxes if yahtzee_box is None else open_boxes - {edition.five_of_a_kind}
    assume(boxes)  # a filled Yahtzee box is not open
    for placement in placements(dice, boxes, yahtzee_box, rule_set):
        assert placement.points in possible_points(placement.category, rule_set)
        assert check_entry(placement.category, placement.points, rule_set) == placement.points


def test_an_impossible_score_is_refused_saying_what_the_box_holds() -> None:
    fours, full = Category.parse("fours"), Category.parse("full house")
    with pytest.raises(InvalidInput, match=r"Fours holds 0, 4, 8, 12, 16 or 20 points .*not 7"):
        check_entry(fours, 7, OFFICIAL)
    with pytest.raises(InvalidInput, match=r"Full House holds 0 or 25 points"):
        check_entry(full, 20, OFFICIAL)
    with pytest.raises(InvalidInput, match=r"Chance holds 5 to 30 points"):
        check_entry(Category.parse("chance"), 0, OFFICIAL)
    for bad in (True, 4.0, "4", None, -4, 24):
        with pytest.raises(InvalidInput):
            check_entry(fours, bad, OFFICIAL)


def test_the_allowed_points_read_as_a_player_would_say_them() -> None:
    assert allowed_text(frozenset({0, 4, 8})) == "0, 4 or 8"
    assert allowed_text(frozenset({0, *range(5, 31)})) == "0 or 5 to 30"
    assert allowed_text(frozenset({25})) == "25"
    assert allowed_text(frozenset({1, 2, 3, 7})) == "1 to 3 or 7"
