"""How uvicorn serves the app's WebSockets: the options that ``yahtzee serve`` and the
tests' servers give it, all of them uvicorn's public ones.

uvicorn's WebSocket protocol (``websockets-sansio``, on the ``websockets`` package that
``uvicorn[standard]`` installs) pings each connection every `PING_INTERVAL_S` seconds and
closes one whose pong has not come `PING_TIMEOUT_S` seconds later: a dead path (a phone
gone for good) is closed after about 40 s. The page's own pings, every 2 s, find a dead
path sooner and count its seat as away (``web.presence``); these keep connections alive
through proxies that close idle ones. (A subclass of uvicorn's protocol that sent the
pings of all connections on a shared one-second beat cut the idle server's wakeups but
not its CPU, in docs/benchmarks/cluster.md's runs, so it went.)
"""

from __future__ import annotations

from typing import Any, Final

from .protocol import MAX_MESSAGE_BYTES

WEBSOCKETS: Final = "websockets-sansio"
"""uvicorn's WebSocket protocol, by its public name."""
PING_INTERVAL_S: Final = 20.0
"""Seconds between the keepalive pings of a connection (uvicorn's default)."""
PING_TIMEOUT_S: Final = 20.0
"""Seconds a ping's pong may take before the connection is closed (uvicorn's default)."""


def websocket_options(
    *, ping_interval: float = PING_INTERVAL_S, ping_timeout: float = PING_TIMEOUT_S
) -> dict[str, Any]:
    """uvicorn's WebSocket options (for ``uvicorn.Config``): its protocol, the keepalive
    pings, no compression (small JSON messages: it costs more than it saves) and the
    largest frame (a bigger one closes the connection unread)."""
    return {
        "ws": WEBSOCKETS,
        "ws_ping_interval": ping_interval,
        "ws_ping_timeout": ping_timeout,
        "ws_per_message_deflate": False,
        "ws_max_size": MAX_MESSAGE_BYTES,
    }


__all__ = ["PING_INTERVAL_S", "PING_TIMEOUT_S", "WEBSOCKETS", "websocket_options"]
