"""A table's room played in one process alone (the terminal game, plain mode): the same
`TableRoom` the server serves each table by, hosted on the face's own event loop.

Everyone at such a table sits at the one keyboard (a hot seat): a command is the seat's
whose decision it is (taking back a placement, or going on after it, the seat's that
placed). Its moves are saved at once (`LocalCommit`: nothing for a game not recorded),
each hold with them (a game resumed shows the same dice held); its bots, their pause and
the wait while a placement may still be taken back are the room's (`LiveGame`), and so
is the win-chance meter where the face shows it (`WinMeters`, told as `MeterRead`); the
review is made by the game-over screen as it shows it.
"""

from __future__ import annotations

from collections.abc import Callable

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
from .room_events import PresenceChanged, RoomListener
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
        meter: bool = False,
    ) -> None:
        """``listener`` hears the room's events; ``bot_delay``: seconds between a bot's
        moves; ``undo_wait``: seconds a bot waits while the placement before its turn may
        still be taken back (see `LiveGame`); ``meter``: the face shows the win-chance
        meter (read from the start, and after each placement)."""
        self.session = session
        self.room = TableRoom(_table_of(session), _hall(listener, meter=meter))
        self.live: LiveGame = self.room.serve(
            lambda publish: LiveGame(
                session,
                LocalCommit(),
                publish,
                bot_delay=bot_delay,
                undo_wait=undo_wait,
                reviews=ReviewedWhenShown(),
                saves_holds=True,
            )
        )
        turn = session.game.turn
        if turn is not None:  # a game resumed: the dice its player last held
            self.live.tray = Tray.resting(turn.dice, session.keep)

    def start(self) -> None:
        """The bots play from now on (the first may be to act); the meter is read for the
        game as it stands (what it finds follows as a `MeterRead`)."""
        self.live.schedule()
        self.room.view(None)

    def close(self) -> None:
        """The game is left (saved as it stands): its bots stop, and its meter."""
        self.live.close()
        self.room.hall.meters.forget(self.room.id)

    def meter_pending(self) -> bool:
        """Whether the meter is being read, or looked at again while its table is
        prepared."""
        return self.room.hall.meters.reading(self.room.id)

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


def _hall(listener: RoomListener, *, meter: bool) -> Hall:
    """A hall of one table, nobody connected to it: no chat, no presence to tell."""
    presence = _Keyboard(listener.heard, watched=meter)
    meters = WinMeters(listener.heard, presence.watched, lambda table: True)
    return Hall(listener, presence, meters, None, lambda table: True)


class _Keyboard(Presence):
    """Who is at a table played at one keyboard: nobody connects, and the table counts as
    watched where the face shows its meter (else the meter is never read)."""

    def __init__(self, broadcast: Callable[[str, PresenceChanged], None], *, watched: bool):
        super().__init__(broadcast)
        self.shown = watched

    def watched(self, table_id: str) -> bool:
        return self.shown


__all__ = ["LOCAL_ID", "LocalRoom"]
