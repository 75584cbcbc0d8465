"""An online table as the lobby holds it: its settings, its seats (secret tokens kept as
hashes) and, once started, its live game."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Final

from ..core import BotSpec, IllegalMove, InvalidInput, RuleSet, same_name
from ..core.language import N_, _
from ..store import tables as records
from ..store.names import look_alike
from .live import LiveGame
from .session import NO_BOTS_ENTERED, GameSession
from .timeout import TimeoutRule, is_turn_by_turn

MAX_ID = 36
"""The longest id of a table, a game or a sitting (a UUID's): a longer one is no id."""

TOKEN_BYTES: Final = 24


def token_hash(token: str) -> str:
    """What is recorded of a secret token (never the token itself)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class SeatState:
    seat: int
    name: str | None = None
    bot: BotSpec | None = None
    token_hash: str | None = None
    missed: int = 0
    """Turns in a row whose time ran out (back to 0 when the player moves)."""
    out: bool = False
    """Out for its missed turns (the timeout rule ``out``): a bot plays the seat."""
    account: str | None = None
    """The id of the signed-in player's account (None: a guest, a bot, an open seat)."""

    @property
    def open(self) -> bool:
        """Nobody sits here yet (nor a bot)."""
        return self.bot is None and self.token_hash is None

    @property
    def reserved(self) -> bool:
        """Open, but kept for the player named (a rematch's seat, taken by that player's
        rematch call; never through the invite link)."""
        return self.open and self.name is not None

    def record(self) -> records.TableSeatRecord:
        return records.TableSeatRecord(
            self.seat,
            self.name,
            self.bot,
            self.token_hash,
            self.missed,
            self.out,
            account=self.account,
        )


@dataclass
class Table:
    id: str
    rules: RuleSet
    hints_allowed: bool
    turn_timer: int | None
    invite_token: str
    spectator_token: str
    owner: str
    status: str
    seats: list[SeatState]
    live: LiveGame | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    active_at: float = field(default_factory=time.time)
    """When the table last changed (Unix time)."""
    sitting: str = ""
    """The sitting: the table's own id (set so when empty), or for a rematch the sitting
    of the table it follows."""
    rematch: str | None = None
    """The id of the table made as this one's rematch, once a player asked for it."""
    entered: bool = False
    """The players roll real dice and enter them (people only: no bot seat)."""
    daily: date | None = None
    """The day of a daily game's table (`service.daily_table`): one seat, hidden from
    everyone else until the day is over."""
    timeout: TimeoutRule = field(default_factory=TimeoutRule)
    """What happens when a move's time runs out (`TimeoutRule`)."""

    def __post_init__(self) -> None:
        self.sitting = self.sitting or self.id

    @classmethod
    def of_record(cls, row: records.TableRecord) -> Table:
        """The table as the records hold it (its game, if any, is served by the lobby)."""
        seats = [
            SeatState(s.seat, s.name, s.bot, s.token_hash, s.missed, s.out, s.account)
            for s in row.seats
        ]
        return cls(
            row.id, RuleSet.named(row.rules), row.hints_allowed, row.turn_timer,
            row.invite_token, row.spectator_token, row.owner, row.status, seats,
            active_at=row.active_at, sitting=row.sitting_id, rematch=row.rematch,
            entered=row.entered,
            timeout=TimeoutRule(row.timeout_rule, row.timeout_level, row.timeout_missed),
        )  # fmt: skip

    @property
    def turn_by_turn(self) -> bool:
        """Whether the table is played turn by turn (a time per move above
        `TURN_BY_TURN_S`): its deadlines are kept in the records, and nobody at it, it
        is let go from memory."""
        return is_turn_by_turn(self.turn_timer)

    @property
    def session(self) -> GameSession | None:
        return self.live.session if self.live is not None else None

    def seat_of(self, token: str | None) -> int | None:
        """The seat this secret token acts for (None for none)."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def record(self) -> records.TableRecord:
        session = self.session
        return records.TableRecord(
            self.id, self.rules.name, self.hints_allowed, self.turn_timer, self.invite_token,
            self.spectator_token, self.owner, self.status,
            session.game_id if session else None, tuple(s.record() for s in self.seats),
            self.active_at, self.sitting, self.rematch, self.entered, self.timeout.rule,
            self.timeout.level, self.timeout.missed,
        )  # fmt: skip


def check_name_free(name: str, taken: Sequence[str | None]) -> None:
    """`InvalidInput` when a seat's name is the same as ``name``, in capitals or in the
    form of its letters (``name_taken``: `same_name`), or looks like it, letter for letter
    (``name_look_alike``: `look_alike`, a Cyrillic A, U+0410, for a Latin one): the cards
    could not tell them apart."""
    holder = same_name(name, taken)
    if holder is not None:
        raise InvalidInput(
            _(
                "That name is taken at this table ({name}): names that differ only in "
                "capitals or letter forms count as the same."
            ).format(name=holder),
            code="name_taken",
        )
    holder = look_alike(name, taken)
    if holder is not None:
        raise InvalidInput(
            _(
                "That name looks just like {name}'s, who sits at this table: the others "
                "could not tell you apart. Choose a name that reads differently."
            ).format(name=holder),
            code="name_look_alike",
        )


NO_TIMER_ENTERED: Final = N_(
    "A table of real dice has no turn timer: nothing can move for a player whose dice are "
    "on the table. Leave the timer off, or let the program roll."
)


def check_entered(seats: Sequence[BotSpec | None], turn_timer: int | None) -> None:
    """A new table of real dice seats people only (``bots_need_rolled_dice``) and runs no
    turn timer (``timer_needs_rolled_dice``): neither a bot nor the timer's stand-in can
    roll the dice on the table."""
    if any(seat is not None for seat in seats):
        raise IllegalMove(_(NO_BOTS_ENTERED), code="bots_need_rolled_dice")
    if turn_timer is not None:
        raise InvalidInput(_(NO_TIMER_ENTERED), code="timer_needs_rolled_dice")


__all__ = [
    "MAX_ID",
    "NO_TIMER_ENTERED",
    "SeatState",
    "Table",
    "check_entered",
    "check_name_free",
    "new_token",
    "token_hash",
]
