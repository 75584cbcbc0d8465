"""An immutable scorecard: thirteen boxes, the Yahtzee bonus, and every total."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Self

from .category import Category
from .dice import Dice
from .errors import IllegalMove, InvalidInput, show
from .frozen import fast_init
from .rules import UPPER_BONUS, UPPER_BONUS_THRESHOLD, YAHTZEE_BONUS, RuleSet
from .scoring import (
    YAHTZEE_POINTS,
    Placement,
    _placements,
    joker_decides,
    joker_score,
    natural_placement,
    score,
)

_CATEGORIES = tuple(Category)
_BOXES = len(_CATEGORIES)
_UPPER_BOXES = len(Category.upper())
_PLAIN_BOX_TYPES = frozenset({int, type(None)})
_YAHTZEE = Category.YAHTZEE  # module constants are cheaper to read than enum members


@fast_init
@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's column. ``boxes[c]`` is the points in box ``c``, or ``None`` while open.

    ``yahtzee_bonus`` is the sum of the Yahtzee bonuses earned so far, in points.
    """

    boxes: tuple[int | None, ...] = (None,) * _BOXES
    yahtzee_bonus: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.boxes, tuple) or len(self.boxes) != _BOXES:
            raise InvalidInput(f"A scorecard has {_BOXES} boxes, each a whole number or None.")
        if not _PLAIN_BOX_TYPES.issuperset(map(type, self.boxes)):  # else look closer
            for points in self.boxes:
                if points is not None and (isinstance(points, bool) or not isinstance(points, int)):
                    raise InvalidInput(f"A box holds a whole number or None, not {show(points)}.")
        bonus = self.yahtzee_bonus
        if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
            raise InvalidInput(
                f"yahtzee_bonus must be a whole number of points, not {show(bonus)}."
            )

    @classmethod
    def empty(cls) -> Self:
        """A card with every box open."""
        return cls()

    # Reading -----------------------------------------------------------------------

    def __getitem__(self, category: Category) -> int | None:
        return self.boxes[category]

    def is_open(self, category: Category) -> bool:
        """Whether ``category``'s box is still open."""
        return self.boxes[category] is None

    @property
    def open_boxes(self) -> tuple[Category, ...]:
        """The open boxes, in card order."""
        return _open_boxes(self.boxes)

    @property
    def filled_boxes(self) -> tuple[Category, ...]:
        """The boxes that hold points, in card order."""
        return tuple(
            c for c, points in zip(_CATEGORIES, self.boxes, strict=True) if points is not None
        )

    @property
    def open_count(self) -> int:
        """How many boxes are open (as ``len(open_boxes)``, without making the tuple)."""
        return self.boxes.count(None)

    @property
    def is_complete(self) -> bool:
        """Whether every box is filled."""
        return None not in self.boxes

    @property
    def upper_subtotal(self) -> int:
        """Sum of Aces to Sixes so far."""
        return sum(filter(None, self.boxes[:_UPPER_BOXES]))

    @property
    def upper_bonus(self) -> int:
        """35 once the upper subtotal reaches 63, else 0."""
        return UPPER_BONUS if self.upper_subtotal >= UPPER_BONUS_THRESHOLD else 0

    @property
    def upper_total(self) -> int:
        """The upper subtotal plus the upper bonus."""
        return self.upper_subtotal + self.upper_bonus

    @property
    def lower_subtotal(self) -> int:
        """Sum of the seven lower boxes, without Yahtzee bonuses."""
        return sum(filter(None, self.boxes[_UPPER_BOXES:]))

    @property
    def lower_total(self) -> int:
        """The lower boxes plus every Yahtzee bonus, as the rulebook totals the lower section."""
        return self.lower_subtotal + self.yahtzee_bonus

    @property
    def total(self) -> int:
        """The grand total: upper section, upper bonus, lower section and Yahtzee bonuses."""
        boxes = self.boxes  # upper_total + lower_total, inlined: this is read often
        upper = sum(filter(None, boxes[:_UPPER_BOXES]))
        upper_total = upper + (UPPER_BONUS if upper >= UPPER_BONUS_THRESHOLD else 0)
        return upper_total + (sum(filter(None, boxes[_UPPER_BOXES:])) + self.yahtzee_bonus)

    @property
    def upper_bonus_missed(self) -> bool:
        """Every upper box is filled and the subtotal stayed under 63: the bonus is 0 for good."""
        return None not in self.boxes[:_UPPER_BOXES] and not self.upper_bonus

    @property
    def points_to_upper_bonus(self) -> int:
        """How far the upper subtotal is from 63 (0 once the bonus is earned)."""
        return max(0, UPPER_BONUS_THRESHOLD - self.upper_subtotal)

    # Playing -----------------------------------------------------------------------

    def placements(self, dice: Dice, rules: RuleSet | None = None) -> tuple[Placement, ...]:
        """Exactly the boxes the dice may go in now, each with its points and bonus."""
        boxes = _open_boxes(self.boxes)  # distinct categories in scorecard order
        rules = rules or RuleSet.official()
        return _placements(dice, boxes, boxes, self.boxes[_YAHTZEE], rules, categories=True)

    def legal_boxes(self, dice: Dice, rules: RuleSet | None = None) -> tuple[Category, ...]:
        """The boxes of `placements`, in scorecard order, without working out their
        points: every open box, unless a Joker rule decides."""
        rules = rules or RuleSet.official()
        boxes = self.boxes
        if not joker_decides(dice, boxes[_YAHTZEE], rules):
            return _open_boxes(boxes)
        return tuple([placement.category for placement in self.placements(dice, rules)])

    def placement(
        self, dice: Dice, category: Category | int | str, rules: RuleSet | None = None
    ) -> Placement:
        """The placement of the dice in ``category``, or `IllegalMove` saying why not."""
        if type(category) is not Category:  # (Category.of returns a Category as it is)
            category = Category.of(category)
        rules = rules or RuleSet.official()
        boxes = self.boxes
        if boxes[category] is None and not joker_decides(dice, boxes[_YAHTZEE], rules):
            return natural_placement(dice, category, boxes[_YAHTZEE], rules)  # in short
        legal = self.placements(dice, rules)
        for option in legal:
            if option.category is category:
                return option
        raise IllegalMove(self._refusal(category, legal), code=_refusal_code(self, category))

    def place(
        self, dice: Dice, category: Category | int | str, rules: RuleSet | None = None
    ) -> Self:
        """The card after scoring the dice in ``category`` (this card is unchanged)."""
        return self.with_placement(self.placement(dice, category, rules))

    def with_placement(self, placement: Placement) -> Self:
        """A new card with ``placement``'s points in its box (``IllegalMove`` if the box is
        filled)."""
        category = placement.category
        if self.boxes[category] is not None:  # not self.is_open(category)
            raise IllegalMove(self._filled_message(category, ()), code="box_filled")
        boxes = list(self.boxes)
        boxes[category] = placement.points
        return type(self)(tuple(boxes), self.yahtzee_bonus + placement.yahtzee_bonus)

    def _filled_message(self, category: Category, legal: tuple[Placement, ...]) -> str:
        if self.is_complete:
            return "The scorecard is complete: every box is filled."
        return (
            f"{category.display_name} is already filled ({self.boxes[category]}). "
            f"{self.allowed_text(legal)}"
        )

    def allowed_text(self, legal: tuple[Placement, ...]) -> str:
        """``"Open boxes: ..."``, or ``"Allowed: ..."`` when a Joker rule narrows them."""
        if not legal or {p.category for p in legal} == set(self.open_boxes):
            return f"Open boxes: {', '.join(c.display_name for c in self.open_boxes)}."
        return f"Allowed: {', '.join(p.category.display_name for p in legal)}."

    def _refusal(self, category: Category, legal: tuple[Placement, ...]) -> str:
        if not self.is_open(category):
            return self._filled_message(category, legal)
        return (
            f"The Joker rule does not allow {category.display_name} now. {self.allowed_text(legal)}"
        )

    # Data --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the boxes by key, the Yahtzee bonus, and the totals."""
        return {
            "boxes": {c.key: self.boxes[c] for c in Category},
            "yahtzee_bonus": self.yahtzee_bonus,
            "upper_subtotal": self.upper_subtotal,
            "upper_bonus": self.upper_bonus,
            "lower_total": self.lower_total,
            "total": self.total,
        }

    def to_json(self) -> str:
        """The card as JSON text (``from_json`` reads it back)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """Read a card written by `to_dict`; anything impossible is `InvalidInput`."""
        if not isinstance(data, Mapping):
            raise InvalidInput("Card data must be a JSON object with a 'boxes' object.")
        raw = data.get("boxes")
        if not isinstance(raw, Mapping):
            raise InvalidInput("Card data needs a 'boxes' object mapping box names to points.")
        boxes: list[int | None] = [None] * _BOXES
        seen: set[Category] = set()
        for name, value in raw.items():
            category = Category.parse(str(name))
            if category in seen:
                raise InvalidInput(f"Card data names {category.display_name} twice.")
            seen.add(category)
            if value is not None:
                _check_box_points(category, value)
            boxes[category] = value
        card = cls(tuple(boxes), _check_bonus(data.get("yahtzee_bonus", 0), boxes))
        for key in ("upper_subtotal", "upper_bonus", "lower_total", "total"):
            if key in data and data[key] != getattr(card, key):
                raise InvalidInput(
                    f"Card data says {key} is {show(data[key])}, but its boxes give "
                    f"{getattr(card, key)}."
                )
        return card

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """A card from ``to_json``'s text (checked: ``InvalidInput`` says what is wrong)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidInput(f"Card data is not valid JSON: {error}.") from None
        except UnicodeDecodeError:
            raise InvalidInput("Card data is not UTF-8 text.") from None
        except (ValueError, TypeError, RecursionError):
            raise InvalidInput("Card data is not valid JSON for a scorecard.") from None
        try:
            return cls.from_dict(data)
        except RecursionError:
            raise InvalidInput("Card data is nested too deeply.") from None

    def __iter__(self) -> Iterator[tuple[Category, int | None]]:
        return iter(zip(Category, self.boxes, strict=True))


def _open_boxes(boxes: tuple[int | None, ...]) -> tuple[Category, ...]:
    """The categories whose box is open. Play asks again and again about the same card, so
    the last answer is kept, by the identity of the (immutable) boxes; the others are
    remembered by the boxes' types, which say which are open (at most 2**13 patterns for
    boxes of plain ints)."""
    global _last_open_boxes  # noqa: PLW0603 - the one-entry memo
    last = _last_open_boxes
    if last[0] is boxes:
        return last[1]
    kinds = tuple(map(type, boxes))
    open_boxes = _OPEN_BOXES.get(kinds)
    if open_boxes is None:
        open_boxes = tuple(
            [c for c, points in zip(_CATEGORIES, boxes, strict=True) if points is None]
        )
        _OPEN_BOXES[kinds] = open_boxes
    _last_open_boxes = (boxes, open_boxes)
    return open_boxes


_OPEN_BOXES: dict[tuple[type, ...], tuple[Category, ...]] = {}
_last_open_boxes: tuple[object, tuple[Category, ...]] = (None, ())


def _refusal_code(card: Scorecard, category: Category) -> str:
    return "box_filled" if not card.is_open(category) else "joker_rule"


@cache
def possible_points(category: Category) -> frozenset[int]:
    """Every value a box can hold in some game (zero included)."""
    values: set[int] = set()
    for dice in Dice.all():
        values.add(score(category, dice))
        if dice.is_yahtzee:
            values.add(joker_score(category, dice))
    return frozenset(values)


def _check_box_points(category: Category, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{category.display_name} must hold a whole number, not {show(value)}.")
    if value not in possible_points(category):
        raise InvalidInput(f"{category.display_name} cannot hold {show(value)} points in any game.")


def _check_bonus(value: object, boxes: list[int | None]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"yahtzee_bonus must be a whole number of points, not {show(value)}.")
    if value and boxes[Category.YAHTZEE] != YAHTZEE_POINTS:
        raise InvalidInput(f"A Yahtzee bonus needs {YAHTZEE_POINTS} in the Yahtzee box.")
    filled_others = sum(1 for points in boxes if points is not None) - 1
    if value % YAHTZEE_BONUS or value // YAHTZEE_BONUS > max(filled_others, 0):
        raise InvalidInput(
            f"yahtzee_bonus {show(value)} is impossible: {YAHTZEE_BONUS} points per extra "
            "Yahtzee, each filling one box besides the Yahtzee box."
        )
    return value
