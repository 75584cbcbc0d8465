"""The records' value objects: who sits in a seat, and a recorded game as history lists it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..core import BotSpec

MANY_AT_ONCE = 500
"""Ids in one statement at most (bound parameters: old SQLite builds allow 999)."""
ACTIVE = "active"
ROLLED = "rolled"
ENTERED = "entered"
FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits in a seat: a human by name, or a bot (``bot``: its strategy and level)."""

    name: str
    bot: BotSpec | None = None

    @property
    def kind(self) -> str:
        """``"bot"`` or ``"human"``."""
        return "bot" if self.bot else "human"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One recorded game as history lists it: id, rule set, status, when, seats and totals."""

    id: str
    rules: str
    status: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    seed: str | None
    hints_used: bool
    event_count: int
    players: tuple[str, ...]
    totals: tuple[int | None, ...] = field(default=())
    winners: tuple[str, ...] = field(default=())
    sitting: str | None = None
    """The sitting's id (the id of its first game, or of its first table)."""
    dice: str = ROLLED
    """``rolled`` by the program, or ``entered`` by players with real dice."""


__all__ = ["ACTIVE", "ENTERED", "FINISHED", "ROLLED", "GameSummary", "Seat"]
