"""An immutable scorecard: an edition's boxes, the Yahtzee bonus, and every total."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Self

from .box import Box
from .category import Category
from .dice import Dice
from .editions import AMERICAN, Edition
from .entries import possible_points as _possible_under
from .errors import IllegalMove, InvalidInput, show
from .frozen import fast_init
from .language import _
from .rules import YAHTZEE_BONUS, RuleSet
from .scoring import (
    Placement,
    _placements,
    joker_decides,
    natural_placement,
)

_UPPER_BOXES = len(Category.upper())  # six in every edition (`describe_boxes` checks it)
_PLAIN_BOX_TYPES = frozenset({int, type(None)})


@fast_init
@dataclass(frozen=True, slots=True)
class Scorecard:
    """One player's column. ``boxes[c]`` is the points in box ``c``, or ``None`` while open.

    ``yahtzee_bonus`` is the sum of the Yahtzee bonuses earned so far, in points;
    ``edition`` is the printed card whose boxes these are (the American by default).
    """

    boxes: tuple[int | None, ...] = (None,) * len(AMERICAN.boxes)
    yahtzee_bonus: int = 0
    edition: Edition = AMERICAN

    def __post_init__(self) -> None:
        edition = self.edition
        if not isinstance(edition, Edition):
            raise InvalidInput(_("A scorecard's edition is an Edition (Edition.named('yatzy'))."))
        count = len(edition.boxes)
        if not isinstance(self.boxes, tuple) or len(self.boxes) != count:
            raise InvalidInput(
                _("A {title} scorecard has {count} boxes, each a whole number or None.").format(
                    title=edition.display_title, count=count
                )
            )
        if not _PLAIN_BOX_TYPES.issuperset(map(type, self.boxes)):  # else look closer
            for points in self.boxes:
                if points is not None and (isinstance(points, bool) or not isinstance(points, int)):
                    raise InvalidInput(
                        _("A box holds a whole number or None, not {points}.").format(
                            points=show(points)
                        )
                    )
        bonus = self.yahtzee_bonus
        if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
            raise InvalidInput(
                _("yahtzee_bonus must be a whole number of points, not {bonus}.").format(
                    bonus=show(bonus)
                )
            )

    @classmethod
    def empty(cls, rules: RuleSet | Edition | None = None) -> Self:
        """A card with every box open, of the rules' edition (the American without rules)."""
        edition = _edition_of(rules)
        if edition is AMERICAN:
            return cls()
        return cls((None,) * len(edition.boxes), 0, edition)

    # Reading -----------------------------------------------------------------------

    def __getitem__(self, category: Box) -> int | None:
        return self.boxes[category]

    def is_open(self, category: Box) -> bool:
        """Whether ``category``'s box is still open."""
        return self.boxes[category] is None

    @property
    def open_boxes(self) -> tuple[Box, ...]:
        """The open boxes, in card order."""
        return _open_boxes(self.boxes, self.edition)

    @property
    def filled_boxes(self) -> tuple[Box, ...]:
        """The boxes that hold points, in card order."""
        pairs = zip(self.edition.boxes, self.boxes, strict=True)
        return tuple(c for c, points in pairs if points is not None)

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
        """The edition's upper bonus (35, Yatzy's 50) once the upper subtotal reaches its
        threshold (63), else 0."""
        edition = self.edition
        return edition.upper_bonus if self.upper_subtotal >= edition.upper_bonus_threshold else 0

    @property
    def upper_total(self) -> int:
        """The upper subtotal plus the upper bonus."""
        return self.upper_subtotal + self.upper_bonus

    @property
    def lower_subtotal(self) -> int:
        """Sum of the lower boxes, without Yahtzee bonuses."""
        return sum(filter(None, self.boxes[_UPPER_BOXES:]))

    @property
    def lower_total(self) -> int:
        """The lower boxes plus every Yahtzee bonus, as the rulebook totals the lower section."""
        return self.lower_subtotal + self.yahtzee_bonus

    @property
    def total(self) -> int:
        """The grand total: upper section, upper bonus, lower section and Yahtzee bonuses."""
        boxes = self.boxes  # upper_total + lower_total, inlined: this is read often
        edition = self.edition
        upper = sum(filter(None, boxes[:_UPPER_BOXES]))
        upper_total = upper + (edition.upper_bonus if upper >= edition.upper_bonus_threshold else 0)
        return upper_total + (sum(filter(None, boxes[_UPPER_BOXES:])) + self.yahtzee_bonus)

    @property
    def upper_bonus_missed(self) -> bool:
        """Every upper box is filled and the subtotal stayed under the threshold: the bonus
        is 0 for good."""
        return None not in self.boxes[:_UPPER_BOXES] and not self.upper_bonus

    @property
    def points_to_upper_bonus(self) -> int:
        """How far the upper subtotal is from the threshold, 63 (0 once the bonus is earned)."""
        return max(0, self.edition.upper_bonus_threshold - self.upper_subtotal)

    # Playing -----------------------------------------------------------------------

    def placements(self, dice: Dice, rules: RuleSet | None = None) -> tuple[Placement, ...]:
        """Exactly the boxes the dice may go in now, each with its points and bonus."""
        rules = self._rules(rules)
        edition = self.edition
        boxes = _open_boxes(self.boxes, edition)  # distinct boxes in scorecard order
        five = self.boxes[edition.five_of_a_kind]
        return _placements(dice, boxes, boxes, five, rules, categories=edition is AMERICAN)

    def legal_boxes(self, dice: Dice, rules: RuleSet | None = None) -> tuple[Box, ...]:
        """The boxes of `placements`, in scorecard order, without working out their
        points: every open box, unless a Joker rule or the order of filling decides."""
        rules = self._rules(rules)
        boxes = self.boxes
        if not rules.ordered and not joker_decides(dice, boxes[self.edition.five_of_a_kind], rules):
            return _open_boxes(boxes, self.edition)
        return tuple([placement.category for placement in self.placements(dice, rules)])

    def placement(
        self, dice: Dice, category: Box | int | str, rules: RuleSet | None = None
    ) -> Placement:
        """The placement of the dice in ``category``, or `IllegalMove` saying why not."""
        rules = self._rules(rules)
        edition = self.edition
        if type(category) is not edition.box_type:  # (of returns a box as it is)
            category = edition.box_type.of(category)
        boxes = self.boxes
        five = boxes[edition.five_of_a_kind]
        if boxes[category] is None and not rules.ordered and not joker_decides(dice, five, rules):
            return natural_placement(dice, category, five, rules)  # in short
        legal = self.placements(dice, rules)
        for option in legal:
            if option.category is category:
                return option
        raise IllegalMove(
            self._refusal(category, legal, rules), code=_refusal_code(self, category, rules)
        )

    def _rules(self, rules: RuleSet | None) -> RuleSet:
        """The rules a play is judged by: ``rules``, which must be of this card's edition,
        or the edition's first rule set (the official rules for an American card)."""
        if rules is None:
            return _default_rules(self.edition)
        if rules.edition is not self.edition:
            raise InvalidInput(
                _("This is a {card} card; the {rules} rules are {edition}'s.").format(
                    card=self.edition.display_title,
                    rules=rules.name,
                    edition=rules.edition.display_title,
                ),
                code="wrong_edition",
            )
        return rules

    def place(self, dice: Dice, category: Box | int | str, rules: RuleSet | None = None) -> Self:
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
        return type(self)(tuple(boxes), self.yahtzee_bonus + placement.yahtzee_bonus, self.edition)

    def _filled_message(self, category: Box, legal: tuple[Placement, ...]) -> str:
        if self.is_complete:
            return _("The scorecard is complete: every box is filled.")
        return _("{box} is already filled ({points}). {allowed}").format(
            box=category.display_name, points=self.boxes[category], allowed=self.allowed_text(legal)
        )

    def allowed_text(self, legal: tuple[Placement, ...]) -> str:
        """``"Open boxes: ..."``, or ``"Allowed: ..."`` when a Joker rule narrows them."""
        if not legal or {p.category for p in legal} == set(self.open_boxes):
            return _("Open boxes: {boxes}.").format(
                boxes=", ".join(c.display_name for c in self.open_boxes)
            )
        return _("Allowed: {boxes}.").format(
            boxes=", ".join(p.category.display_name for p in legal)
        )

    def _refusal(self, category: Box, legal: tuple[Placement, ...], rules: RuleSet) -> str:
        if not self.is_open(category):
            return self._filled_message(category, legal)
        if rules.ordered:
            return _(
                "Under the {rules} rules the boxes are filled top to bottom: the next is {box}."
            ).format(rules=rules.name, box=self.open_boxes[0].display_name)
        return _("The Joker rule does not allow {box} now. {allowed}").format(
            box=category.display_name, allowed=self.allowed_text(legal)
        )

    # Data --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the boxes by key, the Yahtzee bonus, and the totals."""
        data: dict[str, Any] = {
            "boxes": {c.key: self.boxes[c] for c in self.edition.boxes},
            "yahtzee_bonus": self.yahtzee_bonus,
            "upper_subtotal": self.upper_subtotal,
            "upper_bonus": self.upper_bonus,
            "lower_total": self.lower_total,
            "total": self.total,
        }
        if self.edition is not AMERICAN:
            data["edition"] = self.edition.name
        return data

    def to_json(self) -> str:
        """The card as JSON text (``from_json`` reads it back)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object, *, rules: RuleSet | Edition | None = None) -> Self:
        """Read a card written by `to_dict`, of the rules' edition (without rules: the one
        the data names, the American if none); anything impossible is `InvalidInput`."""
        if not isinstance(data, Mapping):
            raise InvalidInput(_("Card data must be a JSON object with a 'boxes' object."))
        edition = Edition.named(data.get("edition", AMERICAN.name))  # none named: American
        if rules is not None and _edition_of(rules) is not edition:
            raise InvalidInput(
                _("This card is a {card} card; the game is {game}.").format(
                    card=edition.display_title, game=_edition_of(rules).display_title
                ),
                code="wrong_edition",
            )
        raw = data.get("boxes")
        if not isinstance(raw, Mapping):
            raise InvalidInput(_("Card data needs a 'boxes' object mapping box names to points."))
        boxes: list[int | None] = [None] * len(edition.boxes)
        seen: set[Box] = set()
        checked = rules if isinstance(rules, RuleSet) else None
        for name, value in raw.items():
            category = edition.box_type.parse(str(name))
            if category in seen:
                raise InvalidInput(
                    _("Card data names {box} twice.").format(box=category.display_name)
                )
            seen.add(category)
            if value is not None:
                _check_box_points(category, value, edition, checked)
            boxes[category] = value
        bonus = _check_bonus(data.get("yahtzee_bonus", 0), boxes, edition)
        card = cls(tuple(boxes), bonus, edition)
        for key in ("upper_subtotal", "upper_bonus", "lower_total", "total"):
            if key in data and data[key] != getattr(card, key):
                raise InvalidInput(
                    _("Card data says {key} is {said}, but its boxes give {total}.").format(
                        key=key, said=show(data[key]), total=getattr(card, key)
                    )
                )
        return card

    @classmethod
    def from_json(cls, text: str | bytes, *, rules: RuleSet | Edition | None = None) -> Self:
        """A card from ``to_json``'s text (checked: ``InvalidInput`` says what is wrong)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidInput(
                _("Card data is not valid JSON: {error}.").format(error=error)
            ) from None
        except UnicodeDecodeError:
            raise InvalidInput(_("Card data is not UTF-8 text.")) from None
        except (ValueError, TypeError, RecursionError):
            raise InvalidInput(_("Card data is not valid JSON for a scorecard.")) from None
        try:
            return cls.from_dict(data, rules=rules)
        except RecursionError:
            raise InvalidInput(_("Card data is nested too deeply.")) from None

    def __iter__(self) -> Iterator[tuple[Box, int | None]]:
        return iter(zip(self.edition.boxes, self.boxes, strict=True))


def _edition_of(rules: RuleSet | Edition | None) -> Edition:
    if rules is None:
        return AMERICAN
    return rules if isinstance(rules, Edition) else rules.edition


def _default_rules(edition: Edition) -> RuleSet:
    """The rules a card of ``edition`` is played by when none are named: the official
    rules for an American card, the edition's own first rule set otherwise."""
    return RuleSet.official() if edition is AMERICAN else RuleSet.named(edition.name)


def _open_boxes(boxes: tuple[int | None, ...], edition: Edition) -> tuple[Box, ...]:
    """The boxes that are open. Play asks again and again about the same card, so
    the last answer is kept, by the identity of the (immutable) boxes; the others are
    remembered by the boxes' types, which say which are open (at most 2**15 patterns for
    boxes of plain ints, per edition)."""
    global _last_open_boxes  # noqa: PLW0603 - the one-entry memo
    last = _last_open_boxes
    if last[0] is boxes:
        return last[1]
    kinds = tuple(map(type, boxes))
    memo = _OPEN_BOXES.get(edition.name)
    if memo is None:
        memo = _OPEN_BOXES[edition.name] = {}
    open_boxes = memo.get(kinds)
    if open_boxes is None:
        open_boxes = tuple(
            [c for c, points in zip(edition.boxes, boxes, strict=True) if points is None]
        )
        memo[kinds] = open_boxes
    _last_open_boxes = (boxes, open_boxes)
    return open_boxes


_OPEN_BOXES: dict[str, dict[tuple[type, ...], tuple[Box, ...]]] = {}
_last_open_boxes: tuple[object, tuple[Box, ...]] = (None, ())


def _refusal_code(card: Scorecard, category: Box, rules: RuleSet) -> str:
    if not card.is_open(category):
        return "box_filled"
    return "out_of_order" if rules.ordered else "joker_rule"


@lru_cache(maxsize=None, typed=True)  # boxes of two editions may be equal ints
def possible_points(category: Box, rules: RuleSet | None = None) -> frozenset[int]:
    """Every value a box can hold in some game (zero included): under ``rules``, or
    without them under any of the edition's house rules."""
    if rules is not None:
        return _possible_under(category, rules)
    edition = Edition.named(category.edition_name())
    values: set[int] = set()
    for house in ((), *((option.key,) for option in edition.house_rules)):
        base = _default_rules(edition)
        rules = dataclasses.replace(base, house=house) if house else base
        values |= _possible_under(category, rules)
    return frozenset(values)


def _check_box_points(
    category: Box, value: object, edition: Edition, rules: RuleSet | None
) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(
            _("{box} must hold a whole number, not {value}.").format(
                box=category.display_name, value=show(value)
            )
        )
    if value not in possible_points(category, rules):
        raise InvalidInput(
            _("{box} cannot hold {value} points in any {edition} game.").format(
                box=category.display_name, value=show(value), edition=edition.display_title
            )
        )


def _check_bonus(value: object, boxes: list[int | None], edition: Edition) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(
            _("yahtzee_bonus must be a whole number of points, not {value}.").format(
                value=show(value)
            )
        )
    if value and not edition.extra_rules:
        raise InvalidInput(
            _("{title} has no extra {title} bonus.").format(title=edition.display_title)
        )
    five = edition.five_of_a_kind
    if value and boxes[five] != edition.box_rules[five].points:
        raise InvalidInput(
            _("A Yahtzee bonus needs {points} in the Yahtzee box.").format(
                points=edition.box_rules[five].points
            )
        )
    filled_others = sum(1 for points in boxes if points is not None) - 1
    if value % YAHTZEE_BONUS or value // YAHTZEE_BONUS > max(filled_others, 0):
        raise InvalidInput(
            _(
                "yahtzee_bonus {value} is impossible: {bonus} points per extra "
                "Yahtzee, each filling one box besides the Yahtzee box."
            ).format(value=show(value), bonus=YAHTZEE_BONUS)
        )
    return value
