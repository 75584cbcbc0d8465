"""``GET /api/rules``: what a new table may be and what its cards hold, as a client shows
them (see ``docs/protocol.md``): each rule set with its summary and its boxes in card
order (key, label, short label, section), the rule set a new table gets, and a table's
limits. The page asks once, before it draws anything: it keeps none of these by hand."""

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
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_POINTS,
    Category,
    RuleSet,
)
from ..service.chat import MAX_CHAT
from ..service.timeout import MAX_TURN_TIMER_S


class BoxView(BaseModel):
    key: str
    """The box as the protocol names it (``full_house``: a card's ``boxes`` key)."""
    label: str
    """As the card prints it: ``Full House``."""
    short: str
    """Where a narrow card has little room: ``Full house``, ``Sm. straight``."""
    section: Literal["upper", "lower"]

    @classmethod
    def of(cls, box: Category) -> BoxView:
        section: Literal["upper", "lower"] = "upper" if box.is_upper else "lower"
        return cls(key=box.key, label=box.display_name, short=box.short_name, section=section)


class BoxPoints(BaseModel):
    """The boxes that score fixed points (the others score dice: their faces or sum)."""

    full_house: int
    small_straight: int
    large_straight: int
    yahtzee: int


class EngineRules(BaseModel):
    """Every number and option the page's rules engine (``static/engine_rules.js``) plays
    a rule set by: the rule set as ``RuleSet.to_dict`` gives it, and the core's fixed
    numbers, so that the page writes none by hand."""

    name: str
    summary: str
    joker: Literal["forced", "free-choice", "none"]
    """What an extra Yahtzee may do (`JokerRule`)."""
    yahtzee_bonus: int
    """Points for each extra Yahtzee while the Yahtzee box holds 50 (0: no bonus)."""
    tie_break: Literal["shared", "playoff"]
    upper_bonus: int
    """Points earned when the upper boxes add up to ``upper_bonus_threshold`` or more."""
    upper_bonus_threshold: int
    points: BoxPoints
    """What Full House, the straights and Yahtzee score (and a Joker scores there)."""
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
        points = BoxPoints(
            full_house=FULL_HOUSE_POINTS,
            small_straight=SMALL_STRAIGHT_POINTS,
            large_straight=LARGE_STRAIGHT_POINTS,
            yahtzee=YAHTZEE_POINTS,
        )
        return cls(
            **rules.to_dict(),
            upper_bonus=UPPER_BONUS,
            upper_bonus_threshold=UPPER_BONUS_THRESHOLD,
            points=points,
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
    boxes: list[BoxView]
    """Its card's boxes, top to bottom."""
    rules: EngineRules
    """What the page's rules engine plays it by (offline)."""

    @classmethod
    def of(cls, rules: RuleSet) -> RuleSetView:
        boxes = [BoxView.of(box) for box in Category]
        engine = EngineRules.of(rules)
        return cls(name=rules.name, summary=rules.summary, boxes=boxes, rules=engine)


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
    @cache
    def offered(cls) -> RulesView:
        limits = TableLimits(
            players=MAX_PLAYERS, name=MAX_NAME_LENGTH, chat=MAX_CHAT, turn_timer=MAX_TURN_TIMER_S
        )
        sets = [RuleSetView.of(RuleSet.named(name)) for name in RuleSet.names()]
        return cls(rule_sets=sets, default=RuleSet.official().name, limits=limits)


__all__ = ["BoxPoints", "BoxView", "EngineRules", "RuleSetView", "RulesView", "TableLimits"]
