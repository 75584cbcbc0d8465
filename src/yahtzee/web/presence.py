"""Who is connected at each table: the seats and the spectators.

Only the node that owns a table serves its connections, so the connections here are the
whole of its presence. Someone coming or going sends a small ``presence`` message, at
most one per table every `PRESENCE_INTERVAL` seconds, never the full state to everyone.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Final

from .connection import Connection
from .messages import Outbound, PresenceMessage

PRESENCE_INTERVAL: Final = 0.5


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
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._sent: dict[str, float] = {}

    def seats(self, table_id: str) -> set[int]:
        """The seats connected."""
        return {c.seat for c in self.connections.get(table_id, {}) if c.seat is not None}

    def spectators(self, table_id: str) -> int:
        """The spectators' connections."""
        return sum(1 for c in self.connections.get(table_id, {}) if c.seat is None)

    def changed(self, table_id: str) -> None:
        """Someone came or went: a presence message is due."""
        if table_id in self._due:
            return
        loop = asyncio.get_running_loop()
        last = self._sent.get(table_id, -math.inf)
        delay = max(0.0, last + self.interval - loop.time())
        self._due[table_id] = loop.call_later(delay, self._send, table_id)

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
        """The server stops: no presence update is due any more."""
        for handle in self._due.values():
            handle.cancel()
        self._due.clear()


__all__ = ["PRESENCE_INTERVAL", "Presence"]
