"""The thirteen boxes of the scorecard, in scorecard order, and the names players use."""

from __future__ import annotations

import difflib
import re
from enum import IntEnum
from typing import Self

from .dice import FACES
from .errors import InvalidInput, show


class Category(IntEnum):
    """A box on the scorecard. Values 0-12 follow the printed card, top to bottom."""

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

    @property
    def display_name(self) -> str:
        """The name printed on the scorecard: ``"Aces"``, ``"Full House"``, ..."""
        return _DISPLAY[self]

    @property
    def short_name(self) -> str:
        """The name where a narrow card has little room: ``"Full house"``,
        ``"Sm. straight"``, ``"3 of a kind"``, else `display_name`."""
        return _SHORT.get(self, _DISPLAY[self])

    @property
    def key(self) -> str:
        """A stable lower-case identifier for files and protocols: ``"full_house"``."""
        return self.name.lower()

    @property
    def code(self) -> str:
        """A short code for notations: ``"1s"`` ... ``"6s"``, ``"3k"``, ``"fh"``, ``"yz"``, ..."""
        return _CODES[self]

    @property
    def is_upper(self) -> bool:
        return self <= Category.SIXES

    @property
    def is_lower(self) -> bool:
        return self >= Category.THREE_OF_A_KIND

    @property
    def face(self) -> int:
        """The die face an upper box counts (1 for Aces ... 6 for Sixes)."""
        if not self.is_upper:
            raise ValueError(f"{self.display_name} is not an upper-section box")
        return FACES[self]

    @classmethod
    def upper(cls) -> tuple[Category, ...]:
        return _UPPER

    @classmethod
    def lower(cls) -> tuple[Category, ...]:
        return _LOWER

    @classmethod
    def for_face(cls, face: int) -> Category:
        """The upper box of a die face: ``Category.for_face(3) is Category.THREES``."""
        if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
            raise InvalidInput(
                f"{show(face)} is not a die face: each die shows {FACES[0]} to {FACES[-1]}."
            )
        return _UPPER[FACES.index(face)]

    @classmethod
    def of(cls, value: Category | int | str) -> Category:
        """A box from a ``Category``, its number (0-12) or a name players use."""
        if isinstance(value, Category):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(cls):
            return Category(value)
        raise InvalidInput(
            f"{show(value)} is not a box: give a name like 'fh' or a number 0-{len(cls) - 1}."
        )

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read a box name as players write it, case-insensitively.

        ``"aces"``, ``"1s"``, ``"3k"``, ``"4 of a kind"``, ``"fh"``, ``"sm straight"``,
        ``"ls"``, ``"five of a kind"``, ``"full_house"``, ``"Chance"``, ...
        """
        if not isinstance(text, str):
            raise InvalidInput(f"A box name must be text, not {type(text).__name__}.")
        if _NUMBER_LIKE.search(text):  # "-1" is not box 1 ("1" is): no sign, no decimals
            names = ", ".join(c.display_name for c in Category)
            raise InvalidInput(f"Unknown box {show(text.strip())}. Boxes: {names}.")
        key = _normalise(text)
        found = _ALIASES.get(key)
        if found is None:
            raise InvalidInput(_unknown_message(text, key))
        return cls(found)

    def __str__(self) -> str:
        return self.display_name


_UPPER = tuple(c for c in Category if c <= Category.SIXES)
_LOWER = tuple(c for c in Category if c > Category.SIXES)

_DISPLAY = {
    Category.ONES: "Aces",
    Category.TWOS: "Twos",
    Category.THREES: "Threes",
    Category.FOURS: "Fours",
    Category.FIVES: "Fives",
    Category.SIXES: "Sixes",
    Category.THREE_OF_A_KIND: "Three of a Kind",
    Category.FOUR_OF_A_KIND: "Four of a Kind",
    Category.FULL_HOUSE: "Full House",
    Category.SMALL_STRAIGHT: "Small Straight",
    Category.LARGE_STRAIGHT: "Large Straight",
    Category.YAHTZEE: "Yahtzee",
    Category.CHANCE: "Chance",
}

_SHORT = {
    Category.THREE_OF_A_KIND: "3 of a kind",
    Category.FOUR_OF_A_KIND: "4 of a kind",
    Category.FULL_HOUSE: "Full house",
    Category.SMALL_STRAIGHT: "Sm. straight",
    Category.LARGE_STRAIGHT: "Lg. straight",
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

_ALIASES: dict[str, int] = {
    alias: int(category) for category, aliases in _NAMES.items() for alias in aliases
}
_ALIASES.update({category.key.replace("_", ""): int(category) for category in Category})

# A sign or a decimal point at a digit: a number, not a box's name ("3-of-a-kind" is one).
_NUMBER_LIKE = re.compile(r"[+\-\u2212]\s*\d|\d\s*[.,]\s*\d|^\s*[.,]|\d\s*[+\-\u2212.,]\s*$")
_DROP = re.compile(r"[\s_\-.'\u2019]+")
_PREFIX = re.compile(r"^(upper|lower)(?=.)")


def _normalise(text: str) -> str:
    key = _DROP.sub("", text.strip().lower())
    return _PREFIX.sub("", key) if key not in _ALIASES else key


def _unknown_message(text: str, key: str) -> str:
    names = ", ".join(c.display_name for c in Category)
    if not key:
        return f"No box named. Boxes: {names}."
    close = difflib.get_close_matches(key, list(_ALIASES), n=1, cutoff=0.75)
    hint = f" Did you mean {Category(_ALIASES[close[0]]).display_name}?" if close else ""
    return f"Unknown box {show(text.strip())}.{hint} Boxes: {names}."
