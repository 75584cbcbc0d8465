"""What a roll scores in each box, and which boxes a roll may go in under a rule set."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from .box import Box
from .category import Category
from .dice import Dice
from .editions import AMERICAN
from .errors import IllegalMove
from .language import _
from .rules import JokerRule, RuleSet

_AMERICAN_RULES = AMERICAN.box_rules
FULL_HOUSE_POINTS = _AMERICAN_RULES[Category.FULL_HOUSE].points
SMALL_STRAIGHT_POINTS = _AMERICAN_RULES[Category.SMALL_STRAIGHT].points
LARGE_STRAIGHT_POINTS = _AMERICAN_RULES[Category.LARGE_STRAIGHT].points
YAHTZEE_POINTS = _AMERICAN_RULES[Category.YAHTZEE].points


def is_full_house(dice: Dice) -> bool:
    """Three of one face and two of another (five of a kind is not a full house)."""
    return _AMERICAN_RULES[Category.FULL_HOUSE].score(dice) != 0


def is_small_straight(dice: Dice) -> bool:
    """Four faces in a row somewhere in the dice (a large straight is one too)."""
    return _AMERICAN_RULES[Category.SMALL_STRAIGHT].score(dice) != 0


def is_large_straight(dice: Dice) -> bool:
    """Five faces in a row."""
    return _AMERICAN_RULES[Category.LARGE_STRAIGHT].score(dice) != 0


_CATEGORIES = tuple(Category)
_NO_JOKER = JokerRule.NONE  # module constants are cheaper to read than enum members


@cache
def _scores(dice: Dice) -> tuple[int, ...]:
    """What the dice score in each American box (at most 252 entries: one per roll)."""
    return tuple(rule.score(dice) for rule in _AMERICAN_RULES)


_SCORE_ROWS: dict[tuple[str, tuple[str, ...]], dict[tuple[int, ...], tuple[int, ...]]] = {}


def scores(dice: Dice, rules: RuleSet | None = None) -> tuple[int, ...]:
    """What the dice score in each box of the rules' edition by the box's own definition,
    in card order (remembered: one row per roll and scoring)."""
    if rules is None or rules.edition is AMERICAN:
        return _scores(dice)
    key = (rules.edition.name, rules.house)
    rows = _SCORE_ROWS.get(key)
    if rows is None:
        rows = _SCORE_ROWS[key] = {}
    row = rows.get(dice.faces)
    if row is None:
        row = rows[dice.faces] = tuple(rule.score(dice) for rule in rules.box_rules)
    return row


def score(category: Box, dice: Dice, rules: RuleSet | None = None) -> int:
    """What the dice score in a box by its own definition (no Joker)."""
    return scores(dice, rules)[category]


def joker_score(category: Box, dice: Dice, rules: RuleSet | None = None) -> int:
    """What a Yahtzee used as a Joker scores in a box: the fixed points of a box that has
    them (Full House 25, straights 30 and 40), else its own score."""
    rule = (rules.box_rules if rules is not None else _AMERICAN_RULES)[category]
    return rule.points if rule.flat else score(category, dice, rules)


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal box for the dice: the points it scores there and any Yahtzee bonus earned.

    ``joker`` is true when the Joker rule decided that the dice may go in this box.
    """

    category: Box
    points: int
    yahtzee_bonus: int = 0
    joker: bool = False

    @property
    def total(self) -> int:
        """Points added to the card: the box plus any Yahtzee bonus."""
        return self.points + self.yahtzee_bonus

    def __str__(self) -> str:
        box, points, bonus = self.category.display_name, self.points, self.yahtzee_bonus
        if bonus and self.joker:
            text = _("{box}: {points} +{bonus} Yahtzee bonus (Joker)")
        elif bonus:
            text = _("{box}: {points} +{bonus} Yahtzee bonus")
        elif self.joker:
            text = _("{box}: {points} (Joker)")
        else:
            text = _("{box}: {points}")
        return text.format(box=box, points=points, bonus=bonus)


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
    dice: Dice, category: Box, yahtzee_box: int | None, rules: RuleSet
) -> Placement:
    """The placement of the dice in open box ``category`` when no Joker rule decides
    (see `joker_decides`) and the order of filling allows it: what `placements` offers
    for that box."""
    bonus = _bonus(dice, yahtzee_box, rules)
    if type(category) is Category:
        return _natural_row(dice, bonus)[category]
    return _placement(category, scores(dice, rules)[category], bonus)


def placements(
    dice: Dice, open_boxes: Iterable[Box], yahtzee_box: int | None, rules: RuleSet
) -> tuple[Placement, ...]:
    """Exactly the legal boxes for ``dice``, in scorecard order.

    ``open_boxes`` are the empty boxes of the card and ``yahtzee_box`` is what the Yahtzee
    box holds (``None`` while it is open). This is the only place the Joker rules and the
    order of filling live.
    """
    open_set = frozenset(open_boxes)
    box_type = rules.edition.box_type
    if any(type(c) is not box_type for c in open_set):
        stray = next(c for c in open_set if type(c) is not box_type)
        raise IllegalMove(
            _("{stray} is not a box of {title} (the {rules_name} rules).").format(
                stray=stray, title=rules.edition.display_title, rules_name=rules.name
            ),
            code="unknown_box",
        )
    boxes = sorted(open_set, key=int)
    categories = box_type is Category
    return _placements(dice, boxes, open_set, yahtzee_box, rules, categories=categories)


def _placements(
    dice: Dice,
    boxes: Sequence[Box],
    open_set: Collection[Box],
    yahtzee_box: int | None,
    rules: RuleSet,
    *,
    categories: bool,
) -> tuple[Placement, ...]:
    """`placements` for the open ``boxes`` already distinct and in scorecard order
    (``open_set`` holds the same boxes, for membership tests). ``categories`` says that
    every box is a ``Category`` member: then the natural placements come from a cached row."""
    if rules.ordered and len(boxes) > 1:  # only the first open box, from the top
        boxes = boxes[:1]
        open_set = boxes
    bonus = _bonus(dice, yahtzee_box, rules)
    if not joker_decides(dice, yahtzee_box, rules):
        if categories:  # the row holds the very placements made below
            row = _natural_row(dice, bonus)
            return tuple([row[c] for c in boxes])
        row_scores = scores(dice, rules)
        return tuple(_placement(c, row_scores[c], bonus) for c in boxes)

    matching = rules.edition.box_type.for_face(dice.faces[0])
    if rules.joker is JokerRule.FREE_CHOICE:
        full_value = matching not in open_set
        return tuple(
            _placement(c, joker_score(c, dice, rules), bonus, True)
            if full_value and joker_score(c, dice, rules) != score(c, dice, rules)
            else _placement(c, score(c, dice, rules), bonus)
            for c in boxes
        )

    # Forced Joker: matching upper box, else any open lower box, else zero in an upper box.
    if matching in open_set:
        return (_placement(matching, score(matching, dice, rules), bonus, True),)
    lower = [c for c in boxes if c.is_lower]
    if lower:
        return tuple(_placement(c, joker_score(c, dice, rules), bonus, True) for c in lower)
    return tuple(_placement(c, 0, bonus, True) for c in boxes)
