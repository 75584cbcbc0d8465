"""The game service: a game being played, with its seats, record, bots, hints and review.

One place drives every game, whatever the front end: `GameSession` (a game with its
seats, its record in the store, its bots, hints and end-of-game review), `TableRoom`
(one live table: its seats, its game as a `LiveGame` with group commits, paced bots and a
turn timer, its chat, presence and win meter, taking typed `commands` and publishing
typed `room_events`) and `Lobby` (online tables with secret seat tokens, each served by
its room). It imports the core, the solver and the store, never a front end.
"""

from . import commands
from .cluster import Cluster, Elsewhere, Moved
from .group_commit import GroupCommit, LocalCommit
from .live import LiveGame, Repeated
from .lobby import (
    LOBBY_IDLE_S,
    MAX_TABLES_PER_CLIENT,
    Forbidden,
    Lobby,
)
from .opening import open_lobby
from .rematch import Rematch, rematch
from .room import Arrival, TableRoom
from .room_events import QuietListener, RoomListener, RoomView
from .session import GameSession, Move, warm_up
from .sitting import Sitting, sitting_of
from .table import SeatState, Table

__all__ = [
    "LOBBY_IDLE_S",
    "MAX_TABLES_PER_CLIENT",
    "Arrival",
    "Cluster",
    "Elsewhere",
    "Forbidden",
    "GameSession",
    "GroupCommit",
    "LiveGame",
    "Lobby",
    "LocalCommit",
    "Move",
    "Moved",
    "QuietListener",
    "Rematch",
    "Repeated",
    "RoomListener",
    "RoomView",
    "SeatState",
    "Sitting",
    "Table",
    "TableRoom",
    "commands",
    "open_lobby",
    "rematch",
    "sitting_of",
    "warm_up",
]
