"""Which node serves a table: a server alone serves every table; a node of several
(`cluster.node.RedisCluster`, loaded only then) serves the tables it owns.

This package's root is all that a server alone loads. The rest is the several-node
server's, in one place: `wire` (every value that crosses between nodes, with its own
encoding), `node` (a node's membership and its tables' ownership leases, in Redis) and
`lobby` (the lobby of one node among several).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...core import YahtzeeError

if TYPE_CHECKING:
    from .wire import Incarnation


class Owned(YahtzeeError):
    """The table is served by another node (``address``: where to reach it; None while
    it moves, when nobody holds it for a moment): the front end relays the request."""

    default_code = "moved"

    def __init__(self, table_id: str, node: str | None, address: str | None) -> None:
        super().__init__("This table is served by another server node: try again.")
        self.table_id = table_id
        self.node = node
        self.address = address


class Listener(Protocol):
    """What a node's lobby hears from its cluster."""

    async def on_tick(self) -> None:
        """Now and then (each heartbeat): let go of what nobody needs here."""

    async def on_lost(self, table_ids: list[str]) -> None:
        """These tables' leases were lost (another node owns them now, or may soon):
        stop serving them at once."""

    async def on_adopt(self, tables: list[tuple[str, Incarnation]]) -> None:
        """A dead node's tables that this node is to take over now (each with the dead
        node's incarnation)."""


class Cluster:
    """One node alone: it owns every table, and has nobody to tell."""

    clustered = False

    def __init__(self, node_id: str = "solo") -> None:
        self.node_id = node_id

    def owns(self, table_id: str) -> bool:
        return True

    async def start(self, listener: Listener) -> None:
        pass

    def check_reachable(self) -> None:
        """Raise `InvalidInput` if what the cluster needs does not answer (a node
        alone needs nothing)."""

    async def stop(self) -> None:
        pass


__all__ = ["Cluster", "Listener", "Owned"]
