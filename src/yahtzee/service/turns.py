"""The seam through which a table tells that a player is to move: whoever notifies
players (the server's Web Push sender) listens here.

The lobby calls `TurnListener.to_move` when a human seat's turn begins: at the game's
start, after a placement, and after a turn the timeout rule played. It is called once
per turn on the node that made the move (a restart or a reload does not call it again),
outside every lock of the table; a listener must not raise (what it raises is logged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .table import Table


class TurnListener(Protocol):
    """Who hears that a human seat is to move (see the module's notes)."""

    async def to_move(self, table: Table, seat: int) -> None:
        """``seat``'s turn at ``table`` has begun (its deadline, if the table has a turn
        timer: ``table.live.deadline``)."""


class NoTurns:
    """Nobody listens (the default)."""

    async def to_move(self, table: Table, seat: int) -> None:
        pass


__all__ = ["NoTurns", "TurnListener"]
