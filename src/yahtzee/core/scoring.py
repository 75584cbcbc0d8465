"""What a roll scores in each box, and which boxes a roll may go in under a rule set."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .category import Category
from .dice import FACES, Dice
from .rules import JokerRule, RuleSet

FULL_HOUSE_POINTS = 25
SMALL_STRAIGHT_POINTS = 30
LARGE_STRAIGHT_POINTS = 40
YAHTZEE_POINTS = 50

_SMALL_RUNS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
_LARGE_RUNS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))


def _has_run(dice: Dice, runs: tuple[tuple[int, ...], ...]) -> bool:
    faces = set(dice.faces)
    return any(faces.issuperset(run) for run in runs)


def is_full_house(dice: Dice) -> bool:
    """Three of one face and two of another (five of a kind is not a full house)."""
    return sorted(c for c in dice.counts if c) == [2, 3]


def is_small_straight(dice: Dice) -> bool:
    """Four faces in a row somewhere in the dice (a large straight is one too)."""
    return _has_run(dice, _SMALL_RUNS)


def is_large_straight(dice: Dice) -> bool:
    """Five faces in a row."""
    return _has_run(dice, _LARGE_RUNS)


def _of_a_kind(n: int) -> Callable[[Dice], int]:
    return lambda dice: dice.total if max(dice.counts) >= n else 0


def _flat(points: int, test: Callable[[Dice], bool]) -> Callable[[Dice], int]:
    return lambda dice: points if test(dice) else 0


def _upper(face: int) -> Callable[[Dice], int]:
    return lambda dice: face * dice.count(face)


_NATURAL: dict[Category, Callable[[Dice], int]] = {
    **{Category.for_face(face): _upper(face) for face in FACES},
    Category.THREE_OF_A_KIND: _of_a_kind(3),
    Category.FOUR_OF_A_KIND: _of_a_kind(4),
    Category.FULL_HOUSE: _flat(FULL_HOUSE_POINTS, is_full_house),
    Category.SMALL_STRAIGHT: _flat(SMALL_STRAIGHT_POINTS, is_small_straight),
    Category.LARGE_STRAIGHT: _flat(LARGE_STRAIGHT_POINTS, is_large_straight),
    Category.YAHTZEE: _flat(YAHTZEE_POINTS, lambda dice: dice.is_yahtzee),
    Category.CHANCE: lambda dice: dice.total,
}

_CATEGORIES = tuple(Category)
_NO_JOKER = JokerRule.NONE  # module constants are cheaper to read than enum members

_JOKER_FLAT = {
    Category.FULL_HOUSE: FULL_HOUSE_POINTS,
    Category.SMALL_STRAIGHT: SMALL_STRAIGHT_POINTS,
    Category.LARGE_STRAIGHT: LARGE_STRAIGHT_POINTS,
}


@cache
def _scores(dice: Dice) -> tuple[int, ...]:
    """What the dice score in each box (at most 252 entries: one per roll)."""
    return tuple(_NATURAL[c](dice) for c in Category)


def score(category: Category, dice: Dice) -> int:
    """What the dice score in a box by its own definition (no Joker)."""
    return _scores(dice)[category]


def joker_score(category: Category, dice: Dice) -> int:
    """What a Yahtzee used as a Joker scores in a box: Full House 25, straights 30 and 40."""
    return _JOKER_FLAT.get(category) or score(category, dice)


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal box for the dice: the points it scores there and any Yahtzee bonus earned.

    ``joker`` is true when the Joker rule decided that the dice may go in this box.
    """

    category: Category
    points: int
    yahtzee_bonus: int = 0
    joker: bool = False

    @property
    def total(self) -> int:
        """Points added to the card: the box plus any Yahtzee bonus."""
        return self.points + self.yahtzee_bonus

    def __str__(self) -> str:
        bonus = f" +{self.yahtzee_bonus} Yahtzee bonus" if self.yahtzee_bonus else ""
        joker = " (Joker)" if self.joker else ""
        return f"{self.category.display_name}: {self.points}{bonus}{joker}"


_placement = lru_cache(maxsize=None, typed=True)(Placement)
"""Placements are immutable and few (box x points x bonus x Joker): each is made once."""


_ROWS: dict[tuple[tuple[int, ...], int], tuple[Placement, ...]] = {}


def _natural_row(dice: Dice, bonus: int) -> tuple[Placement, ...]:
    """The placement of the dice in each box by its own definition, in ``Category`` order,
    remembered by faces and bonus (at most 252 x 2 rows: one per roll and bonus)."""
    key = (dice.faces, bonus)
    row = _ROWS.get(key)
    if row is None:
        scores = _scores(dice)
        row = _ROWS[key] = tuple(_placement(c, scores[c], bonus) for c in _CATEGORIES)
    return row


def joker_decides(dice: Dice, yahtzee_box: int | None, rules: RuleSet) -> bool:
    """Whether a Joker rule decides where ``dice`` may go (an extra Yahtzee, rolled with
    the Yahtzee box filled). If not, they may go in any open box, at their natural points:
    `natural_placement`."""
    faces = dice.faces
    return faces[0] == faces[-1] and yahtzee_box is not None and rules.joker is not _NO_JOKER


def _bonus(dice: Dice, yahtzee_box: int | None, rules: RuleSet) -> int:
    """The Yahtzee bonus the dice earn wherever they go."""
    faces = dice.faces
    return rules.yahtzee_bonus if faces[0] == faces[-1] and yahtzee_box == YAHTZEE_POINTS else 0


def natural_placement(
    dice: Dice, category: Category, yahtzee_box: int | None, rules: RuleSet
) -> Placement:
    """The placement of the dice in open box ``category`` when no Joker rule decides
    (see `joker_decides`): what `placements` offers for that box."""
    return _natural_row(dice, _bonus(dice, yahtzee_box, rules))[category]


def placements(
    dice: Dice, open_boxes: Iterable[Category], yahtzee_box: int | None, rules: RuleSet
) -> tuple[Placement, ...]:
    """Exactly the legal boxes for ``dice``, in scorecard order.

    ``open_boxes`` are the empty boxes of the card and ``yahtzee_box`` is what the Yahtzee
    box holds (``None`` while it is open). This is the only place the Joker rules live.
    """
    open_set = frozenset(open_boxes)
    boxes = sorted(open_set, key=int)
    categories = all(type(c) is Category for c in boxes)
    return _placements(dice, boxes, open_set, yahtzee_box, rules, categories=categories)


def _placements(
    dice: Dice,
    boxes: Sequence[Category],
    open_set: Collection[Category],
    yahtzee_box: int | None,
    rules: RuleSet,
    *,
    categories: bool,
) -> tuple[Placement, ...]:
    """`placements` for the open ``boxes`` already distinct and in scorecard order
    (``open_set`` holds the same boxes, for membership tests). ``categories`` says that
    every box is a ``Category`` member: then the natural placements come from a cached row."""
    bonus = _bonus(dice, yahtzee_box, rules)
    if not joker_decides(dice, yahtzee_box, rules):
        if categories:  # the row holds the very placements made below
            row = _natural_row(dice, bonus)
            return tuple([row[c] for c in boxes])
        scores = _scores(dice)
        return tuple(_placement(c, scores[c], bonus) for c in boxes)

    matching = Category.for_face(dice.faces[0])
    if rules.joker is JokerRule.FREE_CHOICE:
        full_value = matching not in open_set
        return tuple(
            _placement(c, joker_score(c, dice), bonus, True)
            if full_value and joker_score(c, dice) != score(c, dice)
            else _placement(c, score(c, dice), bonus)
            for c in boxes
        )

    # Forced Joker: matching upper box, else any open lower box, else zero in an upper box.
    if matching in open_set:
        return (_placement(matching, score(matching, dice), bonus, True),)
    lower = [c for c in boxes if c.is_lower]
    if lower:
        return tuple(_placement(c, joker_score(c, dice), bonus, True) for c in lower)
    return tuple(_placement(c, 0, bonus, True) for c in boxes)
