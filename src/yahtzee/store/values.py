"""The records' value objects: who sits in a seat, a recorded game as history lists it, and
an online table as recorded."""

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
    offline: bool = False
    """Played on a device without the server and uploaded once over: never ranked."""
    edition: str = "american"
    """The edition whose card the game is played on (`core.Edition` by name)."""


@dataclass(frozen=True, slots=True)
class TableSeatRecord:
    """One seat of an online table: a named player (by token hash) or a bot."""

    seat: int
    name: str | None = None
    bot: BotSpec | None = None
    token_hash: str | None = None
    missed: int = 0
    """Turns in a row whose time ran out (back to 0 when the player moves)."""
    out: bool = False
    """The seat is out for its missed turns (a turn-by-turn table's rule ``out``)."""
    account: str | None = None
    """The id of the signed-in player's account (None: a guest, a bot, an open seat)."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    """An online table as recorded: rule set, settings, seats, its game and its state."""

    id: str
    rules: str
    hints_allowed: bool
    turn_timer: int | None
    invite_token: str
    spectator_token: str
    owner: str
    status: str
    game_id: str | None
    seats: tuple[TableSeatRecord, ...]
    active_at: float = 0.0
    """When the table last changed (Unix time, seconds)."""
    sitting: str = ""
    """The sitting the table belongs to (its own id when empty, as for a new table)."""
    rematch: str | None = None
    """The id of the table made as this one's rematch (None until a player asks)."""
    entered: bool = False
    """Whether the players roll real dice and enter them (no bot may sit)."""
    timeout_rule: str = "bot"
    """What happens when a move's time runs out: ``bot`` (a bot of ``timeout_level`` plays
    that turn) or ``out`` (the same; after ``timeout_missed`` missed turns in a row the
    seat is out)."""
    timeout_level: int = 3
    timeout_missed: int = 3
    deadline: float | None = None
    """A turn-by-turn table's decision's deadline (Unix time; None when none runs)."""

    @property
    def sitting_id(self) -> str:
        """The sitting, the table's own id standing in for an empty one."""
        return self.sitting or self.id


__all__ = [
    "ACTIVE",
    "ENTERED",
    "FINISHED",
    "ROLLED",
    "GameSummary",
    "Seat",
    "TableRecord",
    "TableSeatRecord",
]
