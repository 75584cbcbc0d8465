"""``GET /api/rules``: what a new table may be and what its cards hold, as a client shows
them (see ``docs/protocol.md``): each rule set with its summary and its boxes in card
order (key, label, short label, section), the rule set a new table gets, and a table's
limits. The page asks once, before it draws anything: it keeps none of these by hand."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel

from ..core import MAX_NAME_LENGTH, MAX_PLAYERS, Category, RuleSet
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


class RuleSetView(BaseModel):
    name: str
    """The name a new table is asked for with (``rules``)."""
    summary: str
    """The rule set in a sentence."""
    boxes: list[BoxView]
    """Its card's boxes, top to bottom."""

    @classmethod
    def of(cls, rules: RuleSet) -> RuleSetView:
        boxes = [BoxView.of(box) for box in Category]
        return cls(name=rules.name, summary=rules.summary, boxes=boxes)


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


__all__ = ["BoxView", "RuleSetView", "RulesView", "TableLimits"]
