"""The game service: a game being played, with its seats, record, bots, hints and review.

One place drives every game, whatever the front end: `GameSession` (a game with its
seats, its record in the store, its bots, hints and end-of-game review), `LiveGame`
(the same served to many clients at once, with group commits, paced bots and a turn
timer) and `Lobby` (online tables with secret seat tokens). It imports the core,
the solver and the store, never a front end.
"""

from .cluster import Cluster, Owned
from .group_commit import GroupCommit
from .listener import LobbyListener, QuietListener
from .live import LiveGame, Repeated
from .lobby import (
    LOBBY_IDLE_S,
    MAX_TABLES_PER_CLIENT,
    Forbidden,
    Lobby,
)
from .opening import open_lobby
from .rematch import Rematch, rematch
from .session import GameSession, Move, warm_up
from .sitting import Sitting, sitting_of
from .table import SeatState, Table

__all__ = [
    "LOBBY_IDLE_S",
    "MAX_TABLES_PER_CLIENT",
    "Cluster",
    "Forbidden",
    "GameSession",
    "GroupCommit",
    "LiveGame",
    "Lobby",
    "LobbyListener",
    "Move",
    "Owned",
    "QuietListener",
    "Rematch",
    "Repeated",
    "SeatState",
    "Sitting",
    "Table",
    "open_lobby",
    "rematch",
    "sitting_of",
    "warm_up",
]
