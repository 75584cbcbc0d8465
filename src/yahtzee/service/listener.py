"""What a lobby tells the front end that serves its tables' connections: one protocol,
passed to the `Lobby` at construction (the app builds it), and a quiet one for tools
and tests."""

from __future__ import annotations

from typing import Protocol

from ..core import Event
from .table import Table


class LobbyListener(Protocol):
    """What the lobby tells the front end that serves its tables' connections (passed at
    construction; the app builds it)."""

    def published(self, table: Table, seq: int, events: tuple[Event, ...]) -> None:
        """A table's committed events (and the sequence number of the last), in order:
        to broadcast. Never yields."""

    async def changed(self, table: Table) -> None:
        """A table's lobby changed (seats, status, its game started): push it."""

    def watched(self, table_id: str) -> bool:
        """Whether anyone is connected to the table through this node."""

    def moved(self, table_id: str) -> None:
        """This node no longer serves the table (another node owns it now): close its
        connections so that their clients reconnect to the owner."""


class QuietListener:
    """A listener for a lobby nobody is connected to (tools and tests)."""

    def published(self, table: Table, seq: int, events: tuple[Event, ...]) -> None:
        pass

    async def changed(self, table: Table) -> None:
        pass

    def watched(self, table_id: str) -> bool:
        return False

    def moved(self, table_id: str) -> None:
        pass


__all__ = ["LobbyListener", "QuietListener"]
