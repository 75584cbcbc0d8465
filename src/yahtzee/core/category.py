"""The American edition's thirteen boxes, in scorecard order, and the names players use."""

from __future__ import annotations

from .box import Box, BoxNames, describe_boxes
from .language import NP_

_CONTEXT = "american box"
"""The names' context in the catalogs: their translations are the names printed on
Yahtzee cards in each language (Kniffel's in German)."""


class Category(Box):
    """A box on the American scorecard. Values 0-12 follow the printed card, top to bottom."""

    ONES = 0
    TWOS = 1
    THREES = 2
    FOURS = 3
    FIVES = 4
    SIXES = 5
    THREE_OF_A_KIND = 6
    FOUR_OF_A_KIND = 7
    FULL_HOUSE = 8
    SMALL_STRAIGHT = 9
    LARGE_STRAIGHT = 10
    YAHTZEE = 11
    CHANCE = 12


_DISPLAY = {
    Category.ONES: NP_("american box", "Aces"),
    Category.TWOS: NP_("american box", "Twos"),
    Category.THREES: NP_("american box", "Threes"),
    Category.FOURS: NP_("american box", "Fours"),
    Category.FIVES: NP_("american box", "Fives"),
    Category.SIXES: NP_("american box", "Sixes"),
    Category.THREE_OF_A_KIND: NP_("american box", "Three of a Kind"),
    Category.FOUR_OF_A_KIND: NP_("american box", "Four of a Kind"),
    Category.FULL_HOUSE: NP_("american box", "Full House"),
    Category.SMALL_STRAIGHT: NP_("american box", "Small Straight"),
    Category.LARGE_STRAIGHT: NP_("american box", "Large Straight"),
    Category.YAHTZEE: NP_("american box", "Yahtzee"),
    Category.CHANCE: NP_("american box", "Chance"),
}

_SHORT = {
    Category.THREE_OF_A_KIND: NP_("american box", "3 of a kind"),
    Category.FOUR_OF_A_KIND: NP_("american box", "4 of a kind"),
    Category.FULL_HOUSE: NP_("american box", "Full house"),
    Category.SMALL_STRAIGHT: NP_("american box", "Sm. straight"),
    Category.LARGE_STRAIGHT: NP_("american box", "Lg. straight"),
}

_CODES = {
    Category.ONES: "1s",
    Category.TWOS: "2s",
    Category.THREES: "3s",
    Category.FOURS: "4s",
    Category.FIVES: "5s",
    Category.SIXES: "6s",
    Category.THREE_OF_A_KIND: "3k",
    Category.FOUR_OF_A_KIND: "4k",
    Category.FULL_HOUSE: "fh",
    Category.SMALL_STRAIGHT: "ss",
    Category.LARGE_STRAIGHT: "ls",
    Category.YAHTZEE: "yz",
    Category.CHANCE: "ch",
}

# Names players write, after normalising (lower case, no spaces, hyphens or underscores).
_NAMES: dict[Category, tuple[str, ...]] = {
    Category.ONES: ("ones", "one", "aces", "ace", "1s", "1"),
    Category.TWOS: ("twos", "two", "2s", "2", "deuces"),
    Category.THREES: ("threes", "three", "3s", "3", "treys"),
    Category.FOURS: ("fours", "four", "4s", "4"),
    Category.FIVES: ("fives", "five", "5s", "5"),
    Category.SIXES: ("sixes", "six", "6s", "6"),
    Category.THREE_OF_A_KIND: (
        "threeofakind", "3ofakind", "3k", "3oak", "3ok", "3kind", "threekind", "toak",
        "tok", "trips", "3x", "3ofkind", "threeofkind",
    ),
    Category.FOUR_OF_A_KIND: (
        "fourofakind", "4ofakind", "4k", "4oak", "4ok", "4kind", "fourkind", "foak",
        "fok", "quads", "4x", "4ofkind", "fourofkind",
    ),
    Category.FULL_HOUSE: ("fullhouse", "fh", "full", "house", "boat", "fullhse"),
    Category.SMALL_STRAIGHT: (
        "smallstraight", "smstraight", "smstr", "ss", "sm", "small", "sstraight",
        "shortstraight", "4straight", "sst", "smallstr", "lowstraight",
    ),
    Category.LARGE_STRAIGHT: (
        "largestraight", "lgstraight", "lgstr", "ls", "lg", "large", "lstraight",
        "longstraight", "bigstraight", "5straight", "lst", "largestr", "highstraight",
    ),
    Category.YAHTZEE: (
        "yahtzee", "yahtzees", "yahtzy", "yatzy", "yatzee", "y", "yz", "fiveofakind",
        "5ofakind", "5k", "5oak", "5kind", "fivekind", "5ofkind", "fiveofkind",
    ),
    Category.CHANCE: ("chance", "c", "ch", "any", "sum"),
}  # fmt: skip

describe_boxes(
    Category,
    "american",
    NP_("edition", "Yahtzee"),
    {
        c: BoxNames(
            _DISPLAY[c],
            _CODES[c],
            _SHORT.get(c, ""),
            _NAMES[c],
            int(c) + 1 if c <= Category.SIXES else 0,
        )
        for c in Category
    },
    _CONTEXT,
)
