"""Editions of the game as data: each one's boxes, how each box scores, its bonuses, its
house rules and its rules in words. A rule set names its edition (`RuleSet.edition`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .box import Box
from .category import Category
from .dice import Dice
from .errors import InvalidInput, show
from .language import N_, NP_, _, pgettext
from .yatzy_boxes import YatzyBox

_PAIR, _FOUR, _FIVE = 2, 4, 5


class Scoring(StrEnum):
    """How a box turns dice into points."""

    FACE = "face"
    """The dice showing face ``n``, summed."""
    SUM_IF_KIND = "sum-if-kind"
    """All five dice summed, if ``n`` of them are alike (American Three of a Kind)."""
    KIND = "kind"
    """The ``n`` alike dice of the highest face that has ``n`` (Yatzy's pair and kinds)."""
    TWO_PAIRS = "two-pairs"
    """Two different faces twice each, those four dice summed (``also``: four alike count,
    as four dice)."""
    FULL_HOUSE = "full-house"
    """Three of one face and two of another: ``points``, or the sum when 0 (``also``: five
    alike count too)."""
    RUN = "run"
    """``n`` faces in a row anywhere in the dice: ``points``."""
    EXACT = "exact"
    """Exactly the faces ``faces``: ``points``."""
    FIVE_ALIKE = "five-alike"
    """Five of a kind: ``points``."""
    CHANCE = "chance"
    """The five dice summed."""


@dataclass(frozen=True, slots=True)
class BoxRule:
    """How one box scores: a `Scoring` and its numbers."""

    kind: Scoring
    n: int = 0
    points: int = 0
    faces: tuple[int, ...] = ()
    also: bool = False

    def score(self, dice: Dice) -> int:
        """What the dice score in the box by its own definition."""
        counts = dice.counts  # counts[f - 1]: how many dice show f
        kind = self.kind
        if kind is Scoring.FACE:
            return self.n * counts[self.n - 1]
        if kind is Scoring.CHANCE:
            return dice.total
        if kind is Scoring.SUM_IF_KIND:
            return dice.total if max(counts) >= self.n else 0
        if kind is Scoring.KIND:
            return next((self.n * f for f in range(6, 0, -1) if counts[f - 1] >= self.n), 0)
        if kind is Scoring.TWO_PAIRS:
            pairs = [f for f in range(6, 0, -1) if counts[f - 1] >= _PAIR]
            if len(pairs) >= _PAIR:
                return _PAIR * (pairs[0] + pairs[1])
            four = self.also and pairs and counts[pairs[0] - 1] >= _FOUR
            return _FOUR * pairs[0] if four else 0
        if kind is Scoring.FULL_HOUSE:
            shape = sorted(c for c in counts if c)
            fits = shape == [2, 3] or (self.also and shape == [5])
            return (self.points or dice.total) if fits else 0
        if kind is Scoring.RUN:
            faces = set(dice.faces)
            runs = (range(start, start + self.n) for start in range(1, 8 - self.n))
            return self.points if any(faces.issuperset(run) for run in runs) else 0
        if kind is Scoring.EXACT:
            return self.points if dice.faces == self.faces else 0
        return self.points if max(counts) == _FIVE else 0  # FIVE_ALIKE

    @property
    def flat(self) -> bool:
        """Whether the box scores fixed points (what a Joker scores there at full value)."""
        return bool(self.points) and self.kind is not Scoring.FIVE_ALIKE

    def describe(self) -> str:
        """The box's scoring in words: ``"the sum of all five dice, with 3 alike"``."""
        return _describe(self)


_SUM_IF_KIND = {
    2: N_("at least two dice alike: the sum of all five"),
    3: N_("at least three dice alike: the sum of all five"),
    4: N_("at least four dice alike: the sum of all five"),
    5: N_("at least five dice alike: the sum of all five"),
}
_KIND = {
    2: N_("two dice alike: those two summed (the highest face that has two)"),
    3: N_("three dice alike: those three summed (the highest face that has three)"),
    4: N_("four dice alike: those four summed (the highest face that has four)"),
    5: N_("five dice alike: those five summed (the highest face that has five)"),
}


def _describe(rule: BoxRule) -> str:
    kind = rule.kind
    if kind is Scoring.FACE:
        return _("the dice showing {face}, summed").format(face=rule.n)
    if kind is Scoring.SUM_IF_KIND:
        return _(_SUM_IF_KIND[rule.n])
    if kind is Scoring.KIND:
        return _(_KIND[rule.n])
    if kind is Scoring.TWO_PAIRS:
        if rule.also:
            return _("two different pairs: those four dice summed (four alike count too)")
        return _("two different pairs: those four dice summed")
    if kind is Scoring.FULL_HOUSE:
        if rule.points:
            if rule.also:
                return _(
                    "three of one face and two of another (five alike count too): {points}"
                ).format(points=rule.points)
            return _("three of one face and two of another: {points}").format(points=rule.points)
        if rule.also:
            return _(
                "three of one face and two of another (five alike count too): the sum of the dice"
            )
        return _("three of one face and two of another: the sum of the dice")
    if kind is Scoring.RUN:
        return _("{n} faces in a row: {points}").format(n=rule.n, points=rule.points)
    if kind is Scoring.EXACT:
        return _("exactly {faces}: {points}").format(
            faces="-".join(map(str, rule.faces)), points=rule.points
        )
    if kind is Scoring.FIVE_ALIKE:
        return _("five dice alike: {points}").format(points=rule.points)
    return _("any dice: the sum of all five")


@dataclass(frozen=True, slots=True)
class HouseRule:
    """An option of an edition that changes how one box scores (``yatzy+fh5``)."""

    key: str
    box: Box
    rule: BoxRule
    words: str
    """The option in words, in English (marked for the catalogs: shown with ``_``)."""


@dataclass(frozen=True, slots=True, eq=False)
class Edition:
    """A printed game: its card (`box_type`, whose members are the boxes in card order),
    how each box scores, its bonuses and its house rules.

    Editions compare by name: there is one of each, in the registry."""

    name: str
    title: str
    box_type: type[Box]
    box_rules: tuple[BoxRule, ...]
    five_of_a_kind: Box
    upper_bonus: int
    upper_bonus_threshold: int
    house_rules: tuple[HouseRule, ...] = ()
    extra_rules: bool = False
    """Whether the edition has extra-Yahtzee bonuses and Joker rules (the American)."""
    boxes: tuple[Box, ...] = field(init=False)
    upper: tuple[Box, ...] = field(init=False)
    lower: tuple[Box, ...] = field(init=False)

    @property
    def display_title(self) -> str:
        """The game's name as players of the language in force know it (``title`` is the
        English one, for data)."""
        return pgettext("edition", self.title)

    def __post_init__(self) -> None:
        boxes = tuple(self.box_type)
        if len(boxes) != len(self.box_rules):
            raise ValueError(f"{self.name}: one rule per box")
        object.__setattr__(self, "boxes", boxes)
        object.__setattr__(self, "upper", self.box_type.upper())
        object.__setattr__(self, "lower", self.box_type.lower())

    @classmethod
    def named(cls, name: object) -> Edition:
        """A registered edition by name (``"american"``, ``"yatzy"``)."""
        found = _EDITIONS.get(name) if isinstance(name, str) else None
        if found is None:
            raise InvalidInput(
                _("Unknown edition {name}. Editions: {editions}.").format(
                    name=show(name), editions=", ".join(_EDITIONS)
                ),
                code="unknown_edition",
            )
        return found

    @classmethod
    def american(cls) -> Edition:
        """The American edition (Yahtzee): the official rules' card."""
        return AMERICAN

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The registered editions' names, the American first."""
        return tuple(_EDITIONS)

    def house_rule(self, key: str) -> HouseRule:
        """The edition's house rule ``key`` (`InvalidInput` naming those it has)."""
        for option in self.house_rules:
            if option.key == key:
                return option
        known = ", ".join(o.key for o in self.house_rules) or "none"
        raise InvalidInput(
            _("{title} has no house rule {key} (house rules: {known}).").format(
                title=self.display_title, key=show(key), known=known
            )
        )

    def scoring(self, house: tuple[str, ...] = ()) -> tuple[BoxRule, ...]:
        """Each box's rule, in card order, with the house rules ``house`` in force."""
        rules = list(self.box_rules)
        for key in house:
            option = self.house_rule(key)
            rules[option.box] = option.rule
        return tuple(rules)

    def parse_box(self, text: Box | int | str) -> Box:
        """A box of this edition from its name, code or number (`InvalidInput` naming the
        edition otherwise)."""
        return self.box_type.of(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Edition) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Edition.named({self.name!r})"

    def __str__(self) -> str:
        return self.name


C = Category
AMERICAN = Edition(
    name="american",
    title=NP_("edition", "Yahtzee"),
    box_type=Category,
    box_rules=(
        *(BoxRule(Scoring.FACE, n=face) for face in range(1, 7)),
        BoxRule(Scoring.SUM_IF_KIND, n=3),
        BoxRule(Scoring.SUM_IF_KIND, n=4),
        BoxRule(Scoring.FULL_HOUSE, points=25),
        BoxRule(Scoring.RUN, n=4, points=30),
        BoxRule(Scoring.RUN, n=5, points=40),
        BoxRule(Scoring.FIVE_ALIKE, points=50),
        BoxRule(Scoring.CHANCE),
    ),
    five_of_a_kind=C.YAHTZEE,
    upper_bonus=35,
    upper_bonus_threshold=63,
    extra_rules=True,
)

Y = YatzyBox
YATZY = Edition(
    name="yatzy",
    title=NP_("edition", "Yatzy"),
    box_type=YatzyBox,
    box_rules=(
        *(BoxRule(Scoring.FACE, n=face) for face in range(1, 7)),
        BoxRule(Scoring.KIND, n=2),
        BoxRule(Scoring.TWO_PAIRS),
        BoxRule(Scoring.KIND, n=3),
        BoxRule(Scoring.KIND, n=4),
        BoxRule(Scoring.EXACT, faces=(1, 2, 3, 4, 5), points=15),
        BoxRule(Scoring.EXACT, faces=(2, 3, 4, 5, 6), points=20),
        BoxRule(Scoring.FULL_HOUSE),
        BoxRule(Scoring.CHANCE),
        BoxRule(Scoring.FIVE_ALIKE, points=50),
    ),
    five_of_a_kind=Y.YATZY,
    upper_bonus=50,
    upper_bonus_threshold=63,
    house_rules=(
        HouseRule(
            "fh5",
            Y.FULL_HOUSE,
            BoxRule(Scoring.FULL_HOUSE, also=True),
            N_("Five of a kind is also a Full House."),
        ),
        HouseRule(
            "tp4",
            Y.TWO_PAIRS,
            BoxRule(Scoring.TWO_PAIRS, also=True),
            N_("Four of a kind is also Two Pairs."),
        ),
    ),
)

_EDITIONS: Mapping[str, Edition] = {e.name: e for e in (AMERICAN, YATZY)}

__all__ = ["AMERICAN", "YATZY", "BoxRule", "Edition", "HouseRule", "Scoring"]
