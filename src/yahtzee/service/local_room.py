"""A table's room played in one process alone (the terminal game, plain mode): the same
`TableRoom` the server serves each table by, hosted on the face's own event loop.

Everyone at such a table sits at the one keyboard (a hot seat): a command is the seat's
whose decision it is (taking back a placement, or going on after it, the seat's that
placed). Its moves are saved at once (`LocalCommit`: nothing for a game not recorded),
each hold with them (a game resumed shows the same dice held); its bots, their pause and
the wait while a placement may still be taken back are the room's (`LiveGame`); the
review is made by the game-over screen as it shows it.
"""

from __future__ import annotations

from ..core import Scored, Written
from ..store import tables as records
from . import commands
from .commands import Command, Outcome
from .group_commit import LocalCommit
from .live import LiveGame
from .meters import WinMeters
from .presence import Presence
from .reviews import ReviewedWhenShown
from .room import Hall, TableRoom
from .room_events import RoomListener
from .session import GameSession
from .table import SeatState, Table
from .tray import Tray

LOCAL_ID = "local"
"""The table's id for a game not recorded (a recorded game's table is named by its id)."""


class LocalRoom:
    """One game played in this process: its room, and the seat each command is for."""

    def __init__(
        self,
        session: GameSession,
        listener: RoomListener,
        *,
        bot_delay: float = 0.0,
        undo_wait: float = 0.0,
    ) -> None:
        """``listener`` hears the room's events; ``bot_delay``: seconds between a bot's
        moves; ``undo_wait``: seconds a bot waits while the placement before its turn may
        still be taken back (see `LiveGame`)."""
        self.session = session
        self.room = TableRoom(_table_of(session), _hall(listener))
        self.live: LiveGame = self.room.serve(
            session,
            LocalCommit(),
            bot_delay=bot_delay,
            undo_wait=undo_wait,
            reviews=ReviewedWhenShown(),
            saves_holds=True,
        )
        turn = session.game.turn
        if turn is not None:  # a game resumed: the dice its player last held
            self.live.tray = Tray.resting(turn.dice, session.keep)

    def start(self) -> None:
        """The bots play from now on (the first may be to act)."""
        self.live.schedule()

    def close(self) -> None:
        """The game is left (saved as it stands): its bots stop."""
        self.live.close()

    async def handle(self, command: Command) -> Outcome:
        """Carry out ``command`` for the seat it is for, or the room's refusal."""
        return await self.room.handle(self.seat_for(command), command)

    def seat_for(self, command: Command) -> int | None:
        """The seat acting: the one to decide now, or, to take back a placement or go on
        after it, the one that placed last (a bot's placement: the room says it stays)."""
        game = self.session.game
        if isinstance(command, commands.Undo | commands.GoOn):
            log = game.event_log
            last = log[-1] if log else None
            if isinstance(last, Scored | Written):
                return last.player
        return game.current_player


def _table_of(session: GameSession) -> Table:
    seats = [SeatState(i, seat.name, seat.bot) for i, seat in enumerate(session.seats)]
    return Table(
        session.game_id or LOCAL_ID, session.rules, session.hints_allowed, None, "", "", "",
        records.PLAYING, seats, entered=session.game.entered,
    )  # fmt: skip


def _hall(listener: RoomListener) -> Hall:
    """A hall of one table, nobody connected to it: no chat, no presence to tell."""
    meters = WinMeters(listener.heard, lambda table_id: False, lambda table: True)
    return Hall(listener, Presence(listener.heard), meters, None, lambda table: True)


__all__ = ["LOCAL_ID", "LocalRoom"]
