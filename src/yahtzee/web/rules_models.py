"""``GET /api/rules``: what a new table may be and what its cards hold, as a client shows
them (see ``docs/protocol.md``): each rule set with its summary, its edition and its boxes
in card order (key, label, short label, code, section, and how the box scores, as data),
the rule set a new table gets, and a table's limits. The page asks once, before it draws
anything: it keeps none of these by hand."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel

from ..core import (
    DICE_COUNT,
    FACE_COUNT,
    FULL_HOUSE_POINTS,
    LARGE_STRAIGHT_POINTS,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    ROLLS_PER_TURN,
    SMALL_STRAIGHT_POINTS,
    YAHTZEE_POINTS,
    Box,
    BoxRule,
    RuleSet,
)
from ..core.editions import AMERICAN
from ..core.language import current, speaking
from ..service.chat import MAX_CHAT
from ..service.timeout import MAX_TURN_TIMER_S


class BoxScoring(BaseModel):
    """How a box turns dice into points (the core's `BoxRule`, with the house rules in
    force): what the page's rules engine scores the box by."""

    kind: Literal[
        "face",
        "sum-if-kind",
        "kind",
        "two-pairs",
        "full-house",
        "run",
        "exact",
        "five-alike",
        "chance",
    ]
    """``face``: the dice showing ``n``, summed; ``sum-if-kind``: all five summed if ``n``
    are alike; ``kind``: the ``n`` alike dice of the highest such face, summed;
    ``two-pairs``: two different faces twice each, those four summed (``also``: four alike
    count, as four dice); ``full-house``: three of one face and two of another, ``points``
    or the sum when 0 (``also``: five alike count too); ``run``: ``n`` faces in a row,
    ``points``; ``exact``: exactly the faces ``faces``, ``points``; ``five-alike``:
    ``points``; ``chance``: the sum."""
    n: int
    points: int
    faces: list[int]
    also: bool
    words: str
    """The scoring in words: ``"two different pairs: those four dice summed"``."""

    @classmethod
    def of(cls, rule: BoxRule) -> BoxScoring:
        return cls(
            kind=rule.kind.value,
            n=rule.n,
            points=rule.points,
            faces=list(rule.faces),
            also=rule.also,
            words=rule.describe(),
        )


class BoxView(BaseModel):
    key: str
    """The box as the protocol names it (``full_house``: a card's ``boxes`` key)."""
    label: str
    """As the card prints it: ``Full House``."""
    short: str
    """Where a narrow card has little room: ``Full house``, ``Sm. straight``."""
    section: Literal["upper", "lower"]
    code: str
    """The short code of notations: ``1s``, ``3k``, ``fh``, ``1p``."""
    scoring: BoxScoring
    """How the box scores under the rule set."""

    @classmethod
    def of(cls, box: Box, rule: BoxRule) -> BoxView:
        section: Literal["upper", "lower"] = "upper" if box.is_upper else "lower"
        return cls(
            key=box.key,
            label=box.english_name,
            short=box.english_short_name,
            section=section,
            code=box.code,
            scoring=BoxScoring.of(rule),
        )


class BoxPoints(BaseModel):
    """The boxes that score fixed points (the others score dice: their faces or sum)."""

    full_house: int
    small_straight: int
    large_straight: int
    yahtzee: int


class EngineRules(BaseModel):
    """Every number and option the page's rules engine (``static/engine_rules.js``) plays
    a rule set by: the rule set as ``RuleSet.to_dict`` gives it, its edition's numbers and
    the core's fixed ones, so that the page writes none by hand (how each box scores is
    its `BoxView.scoring`)."""

    name: str
    summary: str
    joker: Literal["forced", "free-choice", "none"]
    """What an extra Yahtzee may do (`JokerRule`)."""
    yahtzee_bonus: int
    """Points for each extra Yahtzee while the Yahtzee box holds 50 (0: no bonus)."""
    tie_break: Literal["shared", "playoff"]
    edition: str
    """The printed game whose card the rule set plays: ``american``, ``yatzy``."""
    house: list[str]
    """The edition's house rules in force (``["fh5", "tp4"]``)."""
    ordered: bool
    """Boxes are filled top to bottom: only the first open box may be filled."""
    card_edition: str | None
    """What a card of the rule set gives as its ``edition`` (see CARD): null for the
    American edition, whose cards do not say it."""
    five_of_a_kind: str
    """The key of the box for five alike (``yahtzee``, ``yatzy``): the Joker rule and the
    extra bonus look at it."""
    upper_bonus: int
    """Points earned when the upper boxes add up to ``upper_bonus_threshold`` or more."""
    upper_bonus_threshold: int
    points: BoxPoints | None
    """What Full House, the straights and Yahtzee score (and a Joker scores there) in the
    American edition; null in others (their boxes' ``scoring`` says it)."""
    rolls_per_turn: int
    dice: int
    """Dice thrown (each shows 1 to ``faces``)."""
    faces: int
    players: int
    """Seats in a game, at most."""
    name_length: int
    """Characters in a player's name, at most."""

    @classmethod
    def of(cls, rules: RuleSet) -> EngineRules:
        edition = rules.edition
        points = BoxPoints(
            full_house=FULL_HOUSE_POINTS,
            small_straight=SMALL_STRAIGHT_POINTS,
            large_straight=LARGE_STRAIGHT_POINTS,
            yahtzee=YAHTZEE_POINTS,
        )
        data = {
            **rules.to_dict(),
            "edition": edition.name,
            "house": list(rules.house),
            "ordered": rules.ordered,
        }
        return cls(
            **data,
            card_edition=None if edition is AMERICAN else edition.name,
            five_of_a_kind=edition.five_of_a_kind.key,
            upper_bonus=edition.upper_bonus,
            upper_bonus_threshold=edition.upper_bonus_threshold,
            points=points if edition is AMERICAN else None,
            rolls_per_turn=ROLLS_PER_TURN,
            dice=DICE_COUNT,
            faces=FACE_COUNT,
            players=MAX_PLAYERS,
            name_length=MAX_NAME_LENGTH,
        )


class RuleSetView(BaseModel):
    name: str
    """The name a new table is asked for with (``rules``)."""
    summary: str
    """The rule set in a sentence."""
    title: str
    """Its edition as players name the game: ``Yahtzee``, ``Yatzy`` (a form groups the
    rule sets by it)."""
    rounds: int
    """Rounds in a game: one per box."""
    boxes: list[BoxView]
    """Its card's boxes, top to bottom, each with its scoring under the rule set."""
    rules: EngineRules
    """What the page's rules engine plays it by (offline)."""

    @classmethod
    def of(cls, rules: RuleSet) -> RuleSetView:
        pairs = zip(rules.boxes, rules.box_rules, strict=True)
        boxes = [BoxView.of(box, rule) for box, rule in pairs]
        return cls(
            name=rules.name,
            summary=rules.summary_text(),
            title=rules.edition.title,
            rounds=rules.rounds,
            boxes=boxes,
            rules=EngineRules.of(rules),
        )


class TableLimits(BaseModel):
    players: int
    """Seats at a table, the host's included."""
    name: int
    """Characters in a player's name, at most."""
    chat: int
    """Characters in a chat message, at most."""
    turn_timer: int
    """Seconds a turn timer may give each decision, at most."""


class RulesView(BaseModel):
    """The rule sets a new table offers (the default first), the default's name, and a
    table's limits."""

    rule_sets: list[RuleSetView]
    default: str
    limits: TableLimits

    @classmethod
    def offered(cls) -> RulesView:
        """The rule sets offered, their words in the language in force (made once per
        language; the boxes' labels are English data: the page names them)."""
        return cls._offered_in(current())

    @classmethod
    @cache
    def _offered_in(cls, code: str) -> RulesView:
        with speaking(code):
            return cls._made()

    @classmethod
    def _made(cls) -> RulesView:
        limits = TableLimits(
            players=MAX_PLAYERS, name=MAX_NAME_LENGTH, chat=MAX_CHAT, turn_timer=MAX_TURN_TIMER_S
        )
        sets = [RuleSetView.of(RuleSet.named(name)) for name in RuleSet.names()]
        return cls(rule_sets=sets, default=RuleSet.official().name, limits=limits)


__all__ = [
    "BoxPoints",
    "BoxScoring",
    "BoxView",
    "EngineRules",
    "RuleSetView",
    "RulesView",
    "TableLimits",
]
