"""The lobby a server opens: a server alone's, or a node of several's (whose code is
loaded only then)."""

from __future__ import annotations

from typing import Any

from ..store import Store
from .cluster import Cluster
from .lobby import Lobby
from .room_events import RoomListener


def open_lobby(
    store: Store, listener: RoomListener, *, cluster: Cluster | None = None, **options: Any
) -> Lobby:
    """The lobby of a server alone, or of a node of several (``cluster.clustered``: its
    code is loaded only then). ``options``: `Lobby`'s."""
    if cluster is None or not cluster.clustered:
        return Lobby(store, listener, cluster=cluster, **options)
    from .cluster.lobby import ClusterLobby  # noqa: PLC0415 (only a node of several needs it)

    return ClusterLobby(store, listener, cluster=cluster, **options)


__all__ = ["open_lobby"]
