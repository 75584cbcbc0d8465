"""Who is here at each table: the seats and the spectators whose connections are alive.

Only the node that owns a table serves its connections, so the connections here are the
whole of its presence. A connection counts as here while its client is heard from: the
page pings every two seconds, so one that sent nothing (pings included) for
`AWAY_AFTER_S` seconds is on a dead path (a phone in a tunnel, a network that swallows
everything without closing anything) and counts as away until something comes from it
again. One look over every connection each `LOOK_BEAT_S` (on the server's beat) finds
them, while anyone is connected; no connection has a timer of its own.

Someone coming, going, falling silent or being heard again sends a small ``presence``
message, at most one per table every `PRESENCE_INTERVAL` seconds, never the full state
to everyone.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Final

from ..service.beat import next_beat
from .connection import Connection
from .messages import Outbound, PresenceMessage

PRESENCE_INTERVAL: Final = 0.5
AWAY_AFTER_S: Final = 5.0
"""A connection nothing came from for this long counts as away."""
LOOK_BEAT_S: Final = 1.0
"""How often the connections are looked over for silent ones (on this beat)."""


class Presence:
    """The presence of every table (see the module's notes)."""

    def __init__(
        self,
        connections: dict[str, dict[Connection, None]],
        broadcast: Callable[[str, Outbound], None],
    ) -> None:
        self.connections = connections
        self.broadcast = broadcast
        self.interval = PRESENCE_INTERVAL
        self.away_after = AWAY_AFTER_S
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._sent: dict[str, float] = {}
        self._look: asyncio.TimerHandle | None = None

    def seats(self, table_id: str) -> set[int]:
        """The seats with a connection that is here (not away)."""
        return {
            c.seat for c in self.connections.get(table_id, {}) if c.seat is not None and not c.away
        }

    def spectators(self, table_id: str) -> int:
        """The spectators' connections that are here."""
        return sum(1 for c in self.connections.get(table_id, {}) if c.seat is None and not c.away)

    def heard(self, table_id: str, connection: Connection) -> bool:
        """A message came from the connection: whether it was away (it is here again)."""
        connection.heard = time.monotonic()
        if not connection.away:
            return False
        connection.away = False
        self.changed(table_id)
        return True

    def changed(self, table_id: str) -> None:
        """Someone came, went, fell silent or was heard again: a presence message is due."""
        loop = asyncio.get_running_loop()
        if self._look is None:
            self._look_later(loop)
        if table_id in self._due:
            return
        last = self._sent.get(table_id, -math.inf)
        delay = max(0.0, last + self.interval - loop.time())
        self._due[table_id] = loop.call_later(delay, self._send, table_id)

    def _look_later(self, loop: asyncio.AbstractEventLoop) -> None:
        when = next_beat(loop.time(), LOOK_BEAT_S / 2, LOOK_BEAT_S)  # (one look a beat)
        self._look = loop.call_at(when, self._look_over)

    def _look_over(self) -> None:
        """Every connection nothing came from for `away_after` seconds is away now; the
        next look is due while anyone is connected."""
        self._look = None
        silent_since = time.monotonic() - self.away_after
        for table_id, watching in list(self.connections.items()):
            fell_silent = False
            for connection in watching:
                if not connection.away and connection.heard < silent_since:
                    connection.away = fell_silent = True
            if fell_silent:
                self.changed(table_id)
        if self._look is None and any(self.connections.values()):
            self._look_later(asyncio.get_running_loop())

    def _send(self, table_id: str) -> None:
        self._due.pop(table_id, None)
        if not self.connections.get(table_id):
            self._sent.pop(table_id, None)
            return
        self._sent[table_id] = asyncio.get_running_loop().time()
        message = PresenceMessage(
            connected=sorted(self.seats(table_id)), spectators=self.spectators(table_id)
        )
        self.broadcast(table_id, message)

    def close(self) -> None:
        """The server stops: no presence update nor look is due any more."""
        for handle in self._due.values():
            handle.cancel()
        self._due.clear()
        if self._look is not None:
            self._look.cancel()
            self._look = None


__all__ = ["AWAY_AFTER_S", "LOOK_BEAT_S", "PRESENCE_INTERVAL", "Presence"]
