"""What a table's room tells whoever listens to it: one ordered stream of typed events
(`RoomEvent`), and the table whole as one seat or a spectator is shown it (`RoomView`).

The room publishes each event once, in order, to its `RoomListener`: the server's hub,
which serialises it for the table's connections (never waiting on one), or the terminal's
play screen, which draws it. A listener never yields while it hears an event, so that
events go out in the order the room made them, whatever the locks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..core import Event, Game
    from ..store.chat import ChatLine
    from .meter import MeterReading
    from .table import Table
    from .tray import Tray


@dataclass(frozen=True, slots=True)
class Played:
    """Committed game events (one move, or one move of a bot's turn as it is shown), with
    the game and the dice as committed after them. ``seq``: the last event's sequence
    number; ``by_timer``: the turn timer's stand-in played them."""

    seq: int
    events: tuple[Event, ...]
    game: Game
    tray: Tray
    undo_on: bool
    deadline: float | None
    by_timer: bool = False


@dataclass(frozen=True, slots=True)
class Held:
    """The player to move holds the dice in ``held`` (places of the tray), as of the
    committed event ``seq``."""

    seq: int
    seat: int
    held: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line, recorded."""

    seat: int
    name: str | None
    text: str


@dataclass(frozen=True, slots=True)
class MeterRead:
    """The win-chance meter changed, as of the committed event ``seq``."""

    seq: int
    reading: MeterReading


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Who is at the table now: the seats whose players are here, and the spectators."""

    connected: tuple[int, ...]
    spectators: int


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The table changed (a seat taken or handed to a bot, its game started, a seat
    resigned), or it has ended (``gone``: cancelled, expired): each seat's connection is
    shown the change (and a seat's token that no longer acts for it is let go)."""

    table: Table
    connected: frozenset[int]
    gone: bool = False


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A move's time ran out at ``seat`` (its player ``name``): the table's timeout
    ``rule`` applied (a bot played the turn); ``missed``: the seat's missed turns in a row;
    ``out``: the seat is out from now on (a bot plays it)."""

    seat: int
    name: str | None
    rule: str
    missed: int
    out: bool


@dataclass(frozen=True, slots=True)
class MovedAway:
    """Another server node serves the table now: its listeners here reconnect there."""


RoomEvent = Played | Held | Said | MeterRead | PresenceChanged | TableChanged | TimedOut | MovedAway


@dataclass(frozen=True, slots=True)
class RoomView:
    """The table whole, as committed (a move still being saved is not in it), as ``seat``
    (None: a spectator) is shown it: on arriving, on asking again, when the game starts.
    ``meter``: the win-chance meter as last read, ``meter_current`` whether it was read
    for the cards shown."""

    seq: int
    table: Table
    seat: int | None
    game: Game | None
    tray: Tray | None
    undo_on: bool
    chat: tuple[ChatLine, ...]
    deadline: float | None
    connected: frozenset[int]
    spectators: int
    meter: MeterReading | None = None
    meter_current: bool = False


class RoomListener(Protocol):
    """Who hears the rooms of a node (or the one room of a terminal game)."""

    def heard(self, table_id: str, event: RoomEvent) -> None:
        """An event of the table's room, in order. Never yields."""


class QuietListener:
    """A listener for rooms nobody is connected to (tools and tests)."""

    def heard(self, table_id: str, event: RoomEvent) -> None:
        pass


__all__ = [
    "Held",
    "MeterRead",
    "MovedAway",
    "Played",
    "PresenceChanged",
    "QuietListener",
    "RoomEvent",
    "RoomListener",
    "RoomView",
    "Said",
    "TableChanged",
    "TimedOut",
]
