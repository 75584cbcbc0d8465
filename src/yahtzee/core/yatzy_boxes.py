"""Scandinavian Yatzy's fifteen boxes, in scorecard order, and the names players use."""

from __future__ import annotations

from .box import Box, BoxNames, describe_boxes
from .language import NP_


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


_CONTEXT = "yatzy box"
"""The names' context in the catalogs: their translations are the names printed on Yatzy
cards in each language (the Scandinavian cards' own names)."""

_UPPER_NAMES = (
    (NP_("yatzy box", "Ones"), ("ones", "one", "aces", "ace", "1s", "1")),
    (NP_("yatzy box", "Twos"), ("twos", "two", "2s", "2", "deuces")),
    (NP_("yatzy box", "Threes"), ("threes", "three", "3s", "3", "treys")),
    (NP_("yatzy box", "Fours"), ("fours", "four", "4s", "4")),
    (NP_("yatzy box", "Fives"), ("fives", "five", "5s", "5")),
    (NP_("yatzy box", "Sixes"), ("sixes", "six", "6s", "6")),
)

_LOWER_NAMES: dict[Box, BoxNames] = {
    YatzyBox.ONE_PAIR: BoxNames(
        NP_("yatzy box", "One Pair"), "1p", NP_("yatzy box", "1 pair"),
        ("onepair", "pair", "1pair", "op", "p"),
    ),
    YatzyBox.TWO_PAIRS: BoxNames(
        NP_("yatzy box", "Two Pairs"), "2p", NP_("yatzy box", "2 pairs"),
        ("twopairs", "twopair", "2pairs", "2pair", "tp", "pairs"),
    ),
    YatzyBox.THREE_OF_A_KIND: BoxNames(
        NP_("yatzy box", "Three of a Kind"), "3k", NP_("yatzy box", "3 of a kind"),
        ("threeofakind", "3ofakind", "3oak", "3ok", "3kind", "trips", "3x", "toak", "tok"),
    ),
    YatzyBox.FOUR_OF_A_KIND: BoxNames(
        NP_("yatzy box", "Four of a Kind"), "4k", NP_("yatzy box", "4 of a kind"),
        ("fourofakind", "4ofakind", "4oak", "4ok", "4kind", "quads", "4x", "foak", "fok"),
    ),
    YatzyBox.SMALL_STRAIGHT: BoxNames(
        NP_("yatzy box", "Small Straight"), "ss", NP_("yatzy box", "Sm. straight"),
        ("smallstraight", "smstraight", "smstr", "sm", "small", "sstraight", "sst", "lowstraight"),
    ),
    YatzyBox.LARGE_STRAIGHT: BoxNames(
        NP_("yatzy box", "Large Straight"), "ls", NP_("yatzy box", "Lg. straight"),
        ("largestraight", "lgstraight", "lgstr", "lg", "large", "lstraight", "lst", "bigstraight",
         "highstraight"),
    ),
    YatzyBox.FULL_HOUSE: BoxNames(
        NP_("yatzy box", "Full House"), "fh", NP_("yatzy box", "Full house"),
        ("fullhouse", "full", "house", "boat"),
    ),
    YatzyBox.CHANCE: BoxNames(NP_("yatzy box", "Chance"), "ch", "", ("chance", "c", "any", "sum")),
    YatzyBox.YATZY: BoxNames(
        NP_("yatzy box", "Yatzy"), "yz", "",
        ("yatzy", "yahtzee", "yatzee", "y", "fiveofakind", "5ofakind", "5k", "5oak", "5kind"),
    ),
}  # fmt: skip

describe_boxes(
    YatzyBox,
    "yatzy",
    NP_("edition", "Yatzy"),
    {
        **{
            YatzyBox(face - 1): BoxNames(name, f"{face}s", "", aliases, face)
            for face, (name, aliases) in enumerate(_UPPER_NAMES, start=1)
        },
        **_LOWER_NAMES,
    },
    _CONTEXT,
)
