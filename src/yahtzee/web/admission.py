"""Who is let in: every connection by the table it watches, and the caps on them.

A connection counts against its client address's cap from the moment it is accepted
(`MAX_PER_ADDRESS`, before its hello too). Once it said hello it enters its table: a
player within `MAX_PER_SEAT` connections of the seat (tabs and devices), whatever the
spectators; a spectator within `MAX_SPECTATORS_PER_TABLE` (a spectator link is public,
so a crowd of them never keeps a player out). Each message a connection sends counts
against a token bucket (`RateLimit`): its seat's, shared by all the seat's connections,
or for a spectator its address's.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from .connection import Connection, RateLimit

RATE_PER_SECOND: Final = 10.0
RATE_BURST: Final = 20.0
MAX_PER_ADDRESS: Final = 8
"""Connections from one client address at once (before their hello too)."""
MAX_SPECTATORS_PER_TABLE: Final = 64
"""Spectators' connections to one table at once (a spectator link is public: a crowd of
them never keeps a player out)."""
MAX_PER_SEAT: Final = 8
"""Connections of one seat at once (tabs and devices): a player is admitted whatever the
spectators, within this."""
BUCKETS_KEPT: Final = 4096
"""Rate buckets kept before the refilled ones are forgotten."""


class Admission:
    """The connections of every table, and their caps (see the module's notes)."""

    def __init__(self, *, rate: float = RATE_PER_SECOND) -> None:
        self.rate = rate
        self.burst = max(RATE_BURST, 2 * rate)
        self.max_per_address = MAX_PER_ADDRESS
        self.max_spectators = MAX_SPECTATORS_PER_TABLE
        self.max_per_seat = MAX_PER_SEAT
        self.connections: dict[str, dict[Connection, None]] = {}
        """The connections that said hello, by table (in the order they came)."""
        self.addresses: Counter[str] = Counter()
        """Open connections by client address (hello or not)."""
        self._buckets: dict[tuple[str, str], RateLimit] = {}

    def admit(self, connection: Connection) -> bool:
        """Count a new connection against its address's cap (False: over it)."""
        if self.addresses[connection.address] >= self.max_per_address:
            return False
        self.addresses[connection.address] += 1
        connection.admitted = True
        return True

    def enter(self, table_id: str, connection: Connection) -> str | None:
        """A connection that said hello (``connection.seat`` set) enters its table. Else
        why not: its seat has `MAX_PER_SEAT` connections, or the spectators
        `MAX_SPECTATORS_PER_TABLE`."""
        watching = self.connections.setdefault(table_id, {})
        alike = sum(1 for c in watching if c.seat == connection.seat)
        if connection.seat is not None and alike >= self.max_per_seat:
            refusal = "too many connections for this seat"
        elif connection.seat is None and alike >= self.max_spectators:
            refusal = "too many spectators at this table"
        else:
            connection.table_id = table_id
            watching[connection] = None
            return None
        if not watching:
            del self.connections[table_id]
        return refusal

    def leave(self, connection: Connection) -> str | None:
        """A connection ended (whether or not it was admitted, or entered a table): the
        table it left (None: it had entered none)."""
        if connection.admitted:
            connection.admitted = False
            self.addresses[connection.address] -= 1
            if self.addresses[connection.address] <= 0:
                del self.addresses[connection.address]
        table_id = connection.table_id
        watching = self.connections.get(table_id) if table_id is not None else None
        if table_id is None or watching is None or connection not in watching:
            return None
        del watching[connection]
        if not watching:
            del self.connections[table_id]
        self._forget_buckets()
        return table_id

    def watching(self, table_id: str) -> list[Connection]:
        """The table's connections as they are now (in the order they came)."""
        return list(self.connections.get(table_id, {}))

    def watched(self, table_id: str) -> bool:
        """Whether anyone is connected to the table."""
        return bool(self.connections.get(table_id))

    def rate_limit(self, connection: Connection) -> RateLimit:
        """The bucket a message counts against: its seat's (shared by all the seat's
        connections), or for spectators their address's."""
        key = (
            (f"seat:{connection.table_id}", str(connection.seat))
            if connection.seat is not None
            else ("address", connection.address)
        )
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimit(self.rate, self.burst)
        return bucket

    def _forget_buckets(self) -> None:
        if len(self._buckets) > BUCKETS_KEPT:
            for key in [k for k, b in self._buckets.items() if b.full]:
                del self._buckets[key]


__all__ = [
    "MAX_PER_ADDRESS",
    "MAX_PER_SEAT",
    "MAX_SPECTATORS_PER_TABLE",
    "RATE_PER_SECOND",
    "Admission",
]
