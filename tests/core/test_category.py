from __future__ import annotations

import pytest

from yahtzee import Category, InvalidInput

C = Category


def test_scorecard_order_and_values() -> None:
    assert [c.value for c in Category] == list(range(13))
    assert [c.name for c in Category] == [
        "ONES", "TWOS", "THREES", "FOURS", "FIVES", "SIXES", "THREE_OF_A_KIND",
        "FOUR_OF_A_KIND", "FULL_HOUSE", "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE",
    ]  # fmt: skip
    assert C.ONES.display_name == "Aces"
    assert str(C.FULL_HOUSE) == "Full House"
    assert C.THREE_OF_A_KIND.display_name == "Three of a Kind"
    assert [c.face for c in Category.upper()] == [1, 2, 3, 4, 5, 6]
    assert len(Category.lower()) == 7


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("aces", C.ONES), ("Ones", C.ONES), ("1s", C.ONES), ("twos", C.TWOS),
        ("THREES", C.THREES), ("4", C.FOURS), ("fives", C.FIVES), ("Sixes", C.SIXES),
        ("3k", C.THREE_OF_A_KIND), ("3 of a kind", C.THREE_OF_A_KIND),
        ("Three of a Kind", C.THREE_OF_A_KIND), ("three_of_a_kind", C.THREE_OF_A_KIND),
        ("4k", C.FOUR_OF_A_KIND), ("4 of a kind", C.FOUR_OF_A_KIND),
        ("four-of-a-kind", C.FOUR_OF_A_KIND), ("fh", C.FULL_HOUSE), ("Full House", C.FULL_HOUSE),
        ("sm straight", C.SMALL_STRAIGHT), ("ss", C.SMALL_STRAIGHT),
        ("small straight", C.SMALL_STRAIGHT), ("ls", C.LARGE_STRAIGHT),
        ("lg straight", C.LARGE_STRAIGHT), ("Large Straight", C.LARGE_STRAIGHT),
        ("five of a kind", C.YAHTZEE), ("Yahtzee", C.YAHTZEE), ("yatzy", C.YAHTZEE),
        ("chance", C.CHANCE), ("  CHANCE ", C.CHANCE), ("UpperOnes", C.ONES),
        ("LowerFive of a Kind", C.YAHTZEE), ("LowerFull house", C.FULL_HOUSE),
    ],
)  # fmt: skip
def test_player_names(text: str, category: Category) -> None:
    assert Category.parse(text) is category


def test_every_display_name_and_key_round_trips() -> None:
    for category in Category:
        assert Category.parse(category.display_name) is category
        assert Category.parse(category.key) is category


def test_every_short_name_is_a_name_players_use() -> None:
    """A narrow card's names ("Sm. straight") read back as their boxes."""
    assert [c.short_name for c in Category][6:11] == [
        "3 of a kind", "4 of a kind", "Full house", "Sm. straight", "Lg. straight",
    ]  # fmt: skip
    for category in Category:
        assert Category.parse(category.short_name) is category


def test_unknown_box_suggests_and_lists() -> None:
    with pytest.raises(InvalidInput) as caught:
        Category.parse("full hose")
    message = str(caught.value)
    assert "Did you mean Full House?" in message
    assert "Boxes: Aces, Twos" in message


@pytest.mark.parametrize(
    "text", ["-1", "+1", "- 1", "\u22122", "1.0", "1,5", ".5", "5.", "6-", "-1s", "+fh", "-0"]
)
def test_signed_and_decimal_numbers_are_no_box(text: str) -> None:
    """ "1" is Aces; "-1" is not (it used to score Aces)."""
    with pytest.raises(InvalidInput, match="Unknown box"):
        Category.parse(text)


def test_hyphens_between_words_still_read() -> None:
    assert Category.parse("3-of-a-kind") is C.THREE_OF_A_KIND
    assert Category.parse("5-straight") is C.LARGE_STRAIGHT
    assert Category.parse("upper-ones") is C.ONES
