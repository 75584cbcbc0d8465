"""The intents of a table of real dice: the dice showing (``dice``), quick score entry
(``write``), and taking a placement back (``undo``), each put through the live game like
a roll or a placement (checked by the engine, committed, then published).

Codes a client can act on (see ``docs/protocol.md``): ``bad_dice`` (not five faces from
1 to 6), ``bad_roll`` (a roll of the turn other than 1, 2 or 3), and the engine's own:
``dice_rolled`` (entering at a table whose dice the server rolls), ``dice_entered``
(rolling or holding at a table of real dice), ``not_your_turn``, ``box_filled``,
``points_not_allowed``, ``no_undo``, ``undo_off``.
"""

from __future__ import annotations

from ..core import (
    ROLLS_PER_TURN,
    Category,
    Dice,
    EnterDice,
    IllegalMove,
    InvalidInput,
    Write,
)
from ..service import LiveGame, Table
from .protocol import DiceIntent, UndoIntent, WriteIntent

EntryIntent = DiceIntent | WriteIntent | UndoIntent


def live_of(table: Table) -> LiveGame:
    """The table's game in play (``not_started`` before it starts)."""
    if table.live is None:
        raise IllegalMove("The game has not started yet.", code="not_started")
    return table.live


def read_dice(text: str) -> Dice:
    """Five dice from the players' text (``bad_dice`` saying what is allowed)."""
    try:
        return Dice.parse(text)
    except InvalidInput as error:
        raise InvalidInput(str(error), code="bad_dice") from None


def check_roll(roll: int | None) -> int | None:
    """The roll of the turn the player said, 1 to 3 (``bad_roll`` for another)."""
    if roll is not None and not 1 <= roll <= ROLLS_PER_TURN:
        raise InvalidInput(
            f"A roll of the turn is 1, 2 or {ROLLS_PER_TURN} (or not said), not {roll}.",
            code="bad_roll",
        )
    return roll


def no_holding(table: Table) -> None:
    """At a table of real dice the players hold their own dice (``dice_entered``)."""
    if table.entered:
        raise IllegalMove(
            "At a table of real dice you hold your own dice: enter the five dice showing.",
            code="dice_entered",
        )


async def handle_entry(table: Table, seat: int, intent: EntryIntent, key: str | None) -> int:
    """Apply an entry intent of ``seat``; the committed sequence number after it."""
    live = live_of(table)
    match intent:
        case DiceIntent():
            dice = read_dice(intent.dice)
            action = EnterDice(dice, check_roll(intent.roll))
            return (await live.act(action, seat, key)).seq
        case WriteIntent():
            write = Write(Category.parse(intent.category), intent.points)
            return (await live.act(write, seat, key)).seq
        case UndoIntent():
            return (await live.undo(seat, key)).seq


__all__ = ["EntryIntent", "check_roll", "handle_entry", "live_of", "no_holding", "read_dice"]
