"""Who is connected at each table: the seats and the spectators, through this node and,
on a site of several nodes, through the others (each node tells the others its part;
a node that has just loaded a table asks). Someone coming or going sends a small
``presence`` message, at most one per table every `PRESENCE_INTERVAL` seconds."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any, Final

from ..service import Cluster
from .connection import Connection
from .messages import Outbound, PresenceMessage

PRESENCE_INTERVAL: Final = 0.5

Part = tuple[frozenset[int], int]
"""One node's part of a table's presence: the seats connected there, and spectators."""


class Presence:
    """The presence of every table (see the module's notes)."""

    def __init__(
        self,
        connections: dict[str, dict[Connection, None]],
        broadcast: Callable[[str, Outbound], None],
        cluster: Cluster,
    ) -> None:
        self.connections = connections
        self.broadcast = broadcast
        self.cluster = cluster
        self.interval = PRESENCE_INTERVAL
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._sent: dict[str, float] = {}
        self._told: set[str] = set()
        """Tables whose presence here changed since the other nodes were told."""
        self._elsewhere: dict[str, dict[str, Part]] = {}
        """Each table's parts on the other nodes, by node."""

    def seats(self, table_id: str) -> set[int]:
        """The seats connected, here or through another node."""
        found = {c.seat for c in self.connections.get(table_id, {}) if c.seat is not None}
        for seats, _ in self._others(table_id):
            found |= seats
        return found

    def spectators(self, table_id: str) -> int:
        here = sum(1 for c in self.connections.get(table_id, {}) if c.seat is None)
        return here + sum(count for _, count in self._others(table_id))

    def _others(self, table_id: str) -> list[Part]:
        parts = self._elsewhere.get(table_id, {})
        return [part for node, part in parts.items() if self.cluster.alive(node)]

    def heard(self, table_id: str, seat_count: int, message: dict[str, Any]) -> None:
        """Another node's part (``presence``), or its question (``who``: it has just
        loaded the table) answered with ours."""
        kind = message.get("k")
        if kind == "who":
            if self.connections.get(table_id):
                self.changed(table_id)
            return
        if kind != "presence":
            return
        listed, count = message.get("s"), message.get("v")
        seats = frozenset(
            s for s in (listed if isinstance(listed, list) else []) if s in range(seat_count)
        )
        spectators = count if isinstance(count, int) and count > 0 else 0
        parts = self._elsewhere.setdefault(table_id, {})
        node = str(message.get("n"))
        if seats or spectators:
            parts[node] = (seats, spectators)
        else:
            parts.pop(node, None)
        if not parts:
            del self._elsewhere[table_id]
        self.changed(table_id, here=False)

    def changed(self, table_id: str, *, here: bool = True) -> None:
        """Someone came or went (``here``: through this node): a presence message is due."""
        if here and self.cluster.clustered:
            self._told.add(table_id)
        if table_id in self._due:
            return
        loop = asyncio.get_running_loop()
        last = self._sent.get(table_id, -math.inf)
        delay = max(0.0, last + self.interval - loop.time())
        self._due[table_id] = loop.call_later(delay, self._send, table_id)

    def _send(self, table_id: str) -> None:
        self._due.pop(table_id, None)
        watching = self.connections.get(table_id)
        if table_id in self._told:  # the other nodes hear who is here
            self._told.discard(table_id)
            here = watching or {}
            seats = sorted({c.seat for c in here if c.seat is not None})
            count = sum(1 for c in here if c.seat is None)
            self.cluster.publish({"k": "presence", "t": table_id, "s": seats, "v": count})
        if not watching:
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
