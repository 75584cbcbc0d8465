"""Every box, both bonuses, and every branch of every Joker mode."""

from __future__ import annotations

import pytest

from yahtzee import Category, Dice, IllegalMove, RuleSet, Scorecard, score
from yahtzee.core.scoring import is_full_house, is_large_straight, is_small_straight

C = Category
OFFICIAL = RuleSet.official()
FREE = RuleSet.named("free-choice-joker")
NO_JOKER = RuleSet.named("no-joker")
NO_BONUS = RuleSet.named("no-yahtzee-bonus")


def d(text: str) -> Dice:
    return Dice.parse(text)


def card_with(**boxes: int) -> Scorecard:
    """A card with the named boxes filled (keys are Category names in lower case)."""
    return Scorecard.from_dict({"boxes": boxes})


def options(
    card: Scorecard, dice: str, rules: RuleSet = OFFICIAL
) -> dict[Category, tuple[int, int]]:
    return {p.category: (p.points, p.yahtzee_bonus) for p in card.placements(d(dice), rules)}


# -- natural scores of every box ------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "category", "points"),
    [
        ("11123", C.ONES, 3),
        ("23456", C.ONES, 0),
        ("22245", C.TWOS, 6),
        ("33313", C.THREES, 12),
        ("44444", C.FOURS, 20),
        ("15555", C.FIVES, 20),
        ("66123", C.SIXES, 12),
        ("12345", C.SIXES, 0),
        ("44426", C.THREE_OF_A_KIND, 20),
        ("33332", C.THREE_OF_A_KIND, 14),
        ("44123", C.THREE_OF_A_KIND, 0),
        ("55552", C.FOUR_OF_A_KIND, 22),
        ("66666", C.FOUR_OF_A_KIND, 30),
        ("55522", C.FOUR_OF_A_KIND, 0),
        ("22666", C.FULL_HOUSE, 25),
        ("11122", C.FULL_HOUSE, 25),
        ("33333", C.FULL_HOUSE, 0),
        ("22336", C.FULL_HOUSE, 0),
        ("12346", C.SMALL_STRAIGHT, 30),
        ("13456", C.SMALL_STRAIGHT, 30),
        ("23455", C.SMALL_STRAIGHT, 30),
        ("12345", C.SMALL_STRAIGHT, 30),
        ("23456", C.SMALL_STRAIGHT, 30),
        ("12356", C.SMALL_STRAIGHT, 0),
        ("11234", C.SMALL_STRAIGHT, 30),
        ("12345", C.LARGE_STRAIGHT, 40),
        ("23456", C.LARGE_STRAIGHT, 40),
        ("12346", C.LARGE_STRAIGHT, 0),
        ("33333", C.YAHTZEE, 50),
        ("33332", C.YAHTZEE, 0),
        ("65433", C.CHANCE, 21),
        ("11111", C.CHANCE, 5),
    ],
)
def test_every_box(dice: str, category: Category, points: int) -> None:
    assert score(category, d(dice)) == points
    assert options(Scorecard.empty(), dice)[category] == (points, 0)


def test_yahtzee_is_not_a_full_house_or_straight_without_the_joker() -> None:
    for face in range(1, 7):
        dice = Dice((face,) * 5)
        assert not is_full_house(dice)
        assert not is_small_straight(dice)
        assert not is_large_straight(dice)
        assert score(C.FULL_HOUSE, dice) == 0


def test_large_straight_scored_as_small_straight() -> None:
    card = card_with(large_straight=40)
    assert options(card, "23456")[C.SMALL_STRAIGHT] == (30, 0)


def test_an_empty_card_offers_every_box() -> None:
    assert set(options(Scorecard.empty(), "13356")) == set(Category)


# -- upper bonus ------------------------------------------------------------------------


def test_exactly_63_earns_the_upper_bonus() -> None:
    card = card_with(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card.upper_subtotal == 63
    assert card.upper_bonus == 35
    assert card.upper_total == 98
    assert card.total == 98


def test_62_does_not_earn_the_upper_bonus() -> None:
    card = card_with(ones=2, twos=6, threes=9, fours=12, fives=15, sixes=18)
    assert card.upper_subtotal == 62
    assert card.upper_bonus == 0
    assert card.points_to_upper_bonus == 1
    assert card.total == 62
    assert card.upper_bonus_missed


def test_the_upper_bonus_is_missed_only_once_every_upper_box_is_filled() -> None:
    assert not card_with(ones=0, twos=0, threes=0, fours=0, fives=0).upper_bonus_missed
    assert not card_with(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18).upper_bonus_missed


def test_upper_bonus_counts_once_above_63() -> None:
    card = card_with(ones=5, twos=10, threes=15, fours=20, fives=25, sixes=30)
    assert (card.upper_subtotal, card.upper_bonus, card.total) == (105, 35, 140)


def test_bonus_reached_by_placing_the_last_box() -> None:
    card = card_with(ones=3, twos=6, threes=9, fours=12, fives=15)
    assert card.upper_bonus == 0
    assert card.place(d("66612"), C.SIXES).upper_bonus == 35
    assert card.place(d("66123"), C.SIXES).upper_bonus == 0


# -- Yahtzee bonus ----------------------------------------------------------------------


def test_first_yahtzee_scores_50_and_no_bonus() -> None:
    card = Scorecard.empty().place(d("44444"), C.YAHTZEE)
    assert card[C.YAHTZEE] == 50
    assert card.yahtzee_bonus == 0


def test_extra_yahtzee_with_50_earns_100_once_per_yahtzee() -> None:
    card = card_with(yahtzee=50)
    card = card.place(d("44444"), C.FOURS)
    assert (card[C.FOURS], card.yahtzee_bonus) == (20, 100)
    card = card.place(d("22222"), C.TWOS)
    assert card.yahtzee_bonus == 200
    assert card.lower_total == 50 + 200
    assert card.total == 20 + 10 + 50 + 200


def test_no_bonus_when_the_yahtzee_box_holds_zero() -> None:
    card = card_with(yahtzee=0)
    assert options(card, "44444") == {C.FOURS: (20, 0)}


def test_no_bonus_for_a_non_yahtzee_roll() -> None:
    card = card_with(yahtzee=50)
    assert all(bonus == 0 for _, bonus in options(card, "44443").values())


def test_no_yahtzee_bonus_rule_set() -> None:
    card = card_with(yahtzee=50)
    assert options(card, "44444", NO_BONUS) == {C.FOURS: (20, 0)}


# -- forced Joker (official) ------------------------------------------------------------


def test_forced_matching_upper_box_open_is_the_only_legal_box() -> None:
    card = card_with(yahtzee=50)
    assert options(card, "33333") == {C.THREES: (15, 100)}
    with pytest.raises(IllegalMove, match="Joker rule"):
        card.place(d("33333"), C.FULL_HOUSE)


def test_forced_matching_upper_box_open_with_yahtzee_zero() -> None:
    card = card_with(yahtzee=0)
    assert options(card, "33333") == {C.THREES: (15, 0)}


def test_forced_upper_filled_any_open_lower_box_at_full_value() -> None:
    card = card_with(yahtzee=50, threes=9, ones=3)
    assert options(card, "33333") == {
        C.THREE_OF_A_KIND: (15, 100),
        C.FOUR_OF_A_KIND: (15, 100),
        C.FULL_HOUSE: (25, 100),
        C.SMALL_STRAIGHT: (30, 100),
        C.LARGE_STRAIGHT: (40, 100),
        C.CHANCE: (15, 100),
    }


def test_forced_lower_joker_with_yahtzee_zero_places_but_no_bonus() -> None:
    card = card_with(yahtzee=0, sixes=18)
    opts = options(card, "66666")
    assert opts[C.LARGE_STRAIGHT] == (40, 0)
    assert opts[C.FULL_HOUSE] == (25, 0)
    assert C.ONES not in opts  # upper boxes may not be zeroed while a lower box is open


def test_forced_only_some_lower_boxes_open() -> None:
    card = card_with(
        yahtzee=50, fives=15, three_of_a_kind=20, four_of_a_kind=0, full_house=25, chance=22
    )
    assert options(card, "55555") == {C.SMALL_STRAIGHT: (30, 100), C.LARGE_STRAIGHT: (40, 100)}


def test_forced_upper_and_all_lower_filled_zero_in_open_upper_box() -> None:
    card = card_with(
        yahtzee=50, twos=6, three_of_a_kind=20, four_of_a_kind=0, full_house=25,
        small_straight=30, large_straight=40, chance=22,
    )  # fmt: skip
    assert options(card, "22222") == {
        C.ONES: (0, 100),
        C.THREES: (0, 100),
        C.FOURS: (0, 100),
        C.FIVES: (0, 100),
        C.SIXES: (0, 100),
    }


def test_forced_zero_in_upper_with_yahtzee_zero() -> None:
    card = card_with(
        yahtzee=0, twos=6, threes=9, three_of_a_kind=20, four_of_a_kind=0, full_house=25,
        small_straight=30, large_straight=40, chance=22,
    )  # fmt: skip
    assert options(card, "22222") == {C.ONES: (0, 0), C.FOURS: (0, 0), C.FIVES: (0, 0),
                                      C.SIXES: (0, 0)}  # fmt: skip


def test_joker_does_not_apply_while_the_yahtzee_box_is_open() -> None:
    card = card_with(threes=9)
    opts = options(card, "33333")
    assert opts[C.YAHTZEE] == (50, 0)
    assert opts[C.FULL_HOUSE] == (0, 0)
    assert opts[C.LARGE_STRAIGHT] == (0, 0)
    assert len(opts) == 12


def test_joker_placements_are_marked() -> None:
    card = card_with(yahtzee=50)
    (placement,) = card.placements(d("11111"), OFFICIAL)
    assert placement.joker and placement.total == 105
    assert not any(p.joker for p in Scorecard.empty().placements(d("11111"), OFFICIAL))


# -- free-choice Joker ------------------------------------------------------------------


def test_free_choice_any_open_box_but_no_full_value_while_upper_open() -> None:
    card = card_with(yahtzee=50)
    opts = options(card, "44444", FREE)
    assert set(opts) == set(Category) - {C.YAHTZEE}
    assert opts[C.FOURS] == (20, 100)
    assert opts[C.ONES] == (0, 100)
    assert opts[C.FULL_HOUSE] == (0, 100)
    assert opts[C.SMALL_STRAIGHT] == (0, 100)
    assert opts[C.LARGE_STRAIGHT] == (0, 100)
    assert opts[C.THREE_OF_A_KIND] == (20, 100)
    assert opts[C.CHANCE] == (20, 100)


def test_free_choice_full_value_once_matching_upper_box_filled() -> None:
    card = card_with(yahtzee=0, fours=12)
    opts = options(card, "44444", FREE)
    assert opts[C.FULL_HOUSE] == (25, 0)
    assert opts[C.SMALL_STRAIGHT] == (30, 0)
    assert opts[C.LARGE_STRAIGHT] == (40, 0)
    assert opts[C.SIXES] == (0, 0)


def test_free_choice_with_yahtzee_box_open_is_plain_scoring() -> None:
    opts = options(card_with(fours=12), "44444", FREE)
    assert opts[C.YAHTZEE] == (50, 0)
    assert opts[C.FULL_HOUSE] == (0, 0)


# -- no Joker ---------------------------------------------------------------------------


def test_no_joker_scores_normally_in_any_open_box_with_bonus() -> None:
    card = card_with(yahtzee=50, fours=12)
    opts = options(card, "44444", NO_JOKER)
    assert set(opts) == set(Category) - {C.YAHTZEE, C.FOURS}
    assert opts[C.FULL_HOUSE] == (0, 100)
    assert opts[C.LARGE_STRAIGHT] == (0, 100)
    assert opts[C.THREE_OF_A_KIND] == (20, 100)
    assert opts[C.ONES] == (0, 100)


def test_no_joker_without_bonus_when_yahtzee_box_zero() -> None:
    opts = options(card_with(yahtzee=0), "44444", NO_JOKER)
    assert opts[C.FOURS] == (20, 0)
    assert opts[C.SMALL_STRAIGHT] == (0, 0)


# -- filled boxes -----------------------------------------------------------------------


def test_a_filled_box_is_refused_with_the_open_boxes_named() -> None:
    card = card_with(
        twos=6, threes=9, fours=12, fives=15, sixes=18, three_of_a_kind=20, four_of_a_kind=0,
        full_house=25, small_straight=30, large_straight=40, yahtzee=0,
    )  # fmt: skip
    with pytest.raises(IllegalMove) as caught:
        card.place(d("22333"), C.FULL_HOUSE)
    assert str(caught.value) == "Full House is already filled (25). Open boxes: Aces, Chance."
    assert caught.value.code == "box_filled"


def test_a_complete_card_refuses_everything() -> None:
    card = Scorecard(tuple([0] * 6 + [0, 0, 0, 0, 0, 0, 5]))
    assert card.is_complete
    assert card.placements(d("12345")) == ()
    with pytest.raises(IllegalMove, match="complete"):
        card.place(d("12345"), C.CHANCE)
