"""What a seat (or a spectator) asks of a table's room, and what the room answers.

A command is a small immutable value, as a player gave it (the dice and boxes as text):
the room reads it, checks it against the table and the game, and answers an `Outcome`
(a refusal carries the documented code, and nothing changed). The server's protocol
(`web.protocol`) and the terminal's keys both make these; neither refuses anything itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..solver import Advice
    from ..solver.review import PlayerReview
    from .room_events import RoomView


# Commands -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll:
    """Keep the dice ``keep`` names (text like ``"335"``; empty keeps none) and roll the
    others; or keep the dice in the places ``held`` (0 to 4), which stay where they lie.
    With both, they must name the same dice."""

    keep: str = ""
    held: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold the dice in these places for the next roll (shown to everyone, kept until the
    roll)."""

    held: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Score:
    """Fill a box (any name players use: ``"fh"``, ``"full house"``)."""

    box: str


@dataclass(frozen=True, slots=True)
class Dice:
    """A game of real dice: the five dice showing (text like ``"33356"``), and which roll
    of the turn it is (1 to 3), if the player says."""

    dice: str
    roll: int | None = None


@dataclass(frozen=True, slots=True)
class Write:
    """A game of real dice: ``points`` written in a box, as on a paper pad."""

    box: str
    points: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back one's last placement (where the game allows it)."""


@dataclass(frozen=True, slots=True)
class Resign:
    """The player leaves the game for good: the table's stand-in bot plays the seat on
    under the player's name, and the seat's token acts for it no more."""


@dataclass(frozen=True, slots=True)
class GoOn:
    """The player who just placed goes on: a bot that waits while that placement may be
    taken back plays now."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The advisor's options for one's decision now (where the table allows hints)."""


@dataclass(frozen=True, slots=True)
class Review:
    """After the game: each human's decisions against the optimal ones."""


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat (players only)."""

    text: str


@dataclass(frozen=True, slots=True)
class Resync:
    """The table whole again (after a missed event)."""


Command = Roll | Hold | Score | Dice | Write | Undo | Resign | GoOn | Hint | Review | Chat | Resync


# Outcomes -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Done:
    """The command was carried out (or was a repeat of one carried out before, which
    changed nothing again); ``seq``: the committed sequence number after it."""

    seq: int


@dataclass(frozen=True, slots=True)
class Advised:
    """The advisor's options (`Hint`)."""

    seq: int
    advice: Advice


@dataclass(frozen=True, slots=True)
class Reviewed:
    """The review of the game (`Review`), and how each bot that plays to win decided."""

    seq: int
    players: list[PlayerReview]
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Resynced:
    """The table whole (`Resync`)."""

    seq: int
    view: RoomView


@dataclass(frozen=True, slots=True)
class Refused:
    """Not carried out, and nothing changed: the documented ``code`` and a sentence the
    player understands."""

    code: str
    message: str


Outcome = Done | Advised | Reviewed | Resynced | Refused


__all__ = [
    "Advised",
    "Chat",
    "Command",
    "Dice",
    "Done",
    "GoOn",
    "Hint",
    "Hold",
    "Outcome",
    "Refused",
    "Resign",
    "Resync",
    "Resynced",
    "Review",
    "Reviewed",
    "Roll",
    "Score",
    "Undo",
    "Write",
]
