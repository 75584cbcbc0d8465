"""Scandinavian Yatzy's fifteen boxes, in scorecard order, and the names players use."""

from __future__ import annotations

from .box import Box, BoxNames, describe_boxes


class YatzyBox(Box):
    """A box on the Yatzy scorecard. Values 0-14 follow the printed card, top to bottom."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    ONE_PAIR = 6
    TWO_PAIRS = 7
    THREE_OF_A_KIND = 8
    FOUR_OF_A_KIND = 9
    SMALL_STRAIGHT = 10
    LARGE_STRAIGHT = 11
    FULL_HOUSE = 12
    CHANCE = 13
    YATZY = 14


_UPPER_NAMES = (
    ("Ones", ("ones", "one", "aces", "ace", "1s", "1")),
    ("Twos", ("twos", "two", "2s", "2", "deuces")),
    ("Threes", ("threes", "three", "3s", "3", "treys")),
    ("Fours", ("fours", "four", "4s", "4")),
    ("Fives", ("fives", "five", "5s", "5")),
    ("Sixes", ("sixes", "six", "6s", "6")),
)

_LOWER_NAMES: dict[Box, BoxNames] = {
    YatzyBox.ONE_PAIR: BoxNames(
        "One Pair", "1p", "1 pair", ("onepair", "pair", "1pair", "op", "p")
    ),
    YatzyBox.TWO_PAIRS: BoxNames(
        "Two Pairs", "2p", "2 pairs", ("twopairs", "twopair", "2pairs", "2pair", "tp", "pairs")
    ),
    YatzyBox.THREE_OF_A_KIND: BoxNames(
        "Three of a Kind", "3k", "3 of a kind",
        ("threeofakind", "3ofakind", "3oak", "3ok", "3kind", "trips", "3x", "toak", "tok"),
    ),
    YatzyBox.FOUR_OF_A_KIND: BoxNames(
        "Four of a Kind", "4k", "4 of a kind",
        ("fourofakind", "4ofakind", "4oak", "4ok", "4kind", "quads", "4x", "foak", "fok"),
    ),
    YatzyBox.SMALL_STRAIGHT: BoxNames(
        "Small Straight", "ss", "Sm. straight",
        ("smallstraight", "smstraight", "smstr", "sm", "small", "sstraight", "sst", "lowstraight"),
    ),
    YatzyBox.LARGE_STRAIGHT: BoxNames(
        "Large Straight", "ls", "Lg. straight",
        ("largestraight", "lgstraight", "lgstr", "lg", "large", "lstraight", "lst", "bigstraight",
         "highstraight"),
    ),
    YatzyBox.FULL_HOUSE: BoxNames(
        "Full House", "fh", "Full house", ("fullhouse", "full", "house", "boat")
    ),
    YatzyBox.CHANCE: BoxNames("Chance", "ch", "", ("chance", "c", "any", "sum")),
    YatzyBox.YATZY: BoxNames(
        "Yatzy", "yz", "",
        ("yatzy", "yahtzee", "yatzee", "y", "fiveofakind", "5ofakind", "5k", "5oak", "5kind"),
    ),
}  # fmt: skip

describe_boxes(
    YatzyBox,
    "yatzy",
    "Yatzy",
    {
        **{
            YatzyBox(face - 1): BoxNames(name, f"{face}s", "", aliases, face)
            for face, (name, aliases) in enumerate(_UPPER_NAMES, start=1)
        },
        **_LOWER_NAMES,
    },
)
