"""Which node serves a table, asked of one placement object (`Cluster.claim`): a server
alone serves every table; a node of several (`cluster.node.RedisCluster`, loaded only
then) serves the tables it owns, and answers `Elsewhere` for any other (a value, where
to relay, never an exception).

This package's root is all that a server alone loads: the placement seam and the names
that cross between nodes (the headers: `names`). The rest is the several-node server's,
in one place: `wire` (every value that crosses between nodes, with its own
encoding), `node` (a node's membership and its tables' ownership leases, in Redis) and
`lobby` (the lobby of one node among several).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ...core import YahtzeeError
from ...core.language import _

if TYPE_CHECKING:
    from .wire import Incarnation

from .names import CLIENT_HEADER, NODE_HEADER, RELAY_HEADER, RELAY_KEY_HEADER


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A table another node serves: which (``node``) and where to reach it (``address``,
    ``host:port``); both None while it moves, when nobody known holds it for a moment.
    The front end relays there."""

    table_id: str
    node: str | None = None
    address: str | None = None


class Moved(YahtzeeError):
    """A table needed here is served by another node (`elsewhere`), met where the table
    was not asked for by its id (an invite link, a rematch, a daily attempt): the front end
    relays the whole request there. Asked by its id, the lobby answers `Elsewhere` itself
    (`Lobby.locate`)."""

    default_code = "moved"

    def __init__(self, elsewhere: Elsewhere) -> None:
        super().__init__(_("This table is served by another server node: try again."))
        self.elsewhere = elsewhere


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

    async def claim(self, table_id: str, previous: Incarnation | None = None) -> Elsewhere | None:
        """Serve the table here unless another node does: None (this node holds it now),
        or where it is served. ``previous``: the dead owner it is taken over from. A node
        alone serves every table."""
        return None

    async def start(self, listener: Listener) -> None:
        pass

    def check_reachable(self) -> None:
        """Raise `InvalidInput` if what the cluster needs does not answer (a node
        alone needs nothing)."""

    async def stop(self) -> None:
        pass


__all__ = [
    "CLIENT_HEADER",
    "NODE_HEADER",
    "RELAY_HEADER",
    "RELAY_KEY_HEADER",
    "Cluster",
    "Elsewhere",
    "Listener",
    "Moved",
]
