"""WebSocket keepalive pings on a shared beat.

uvicorn pings each WebSocket every ``ws_ping_interval`` seconds (20 by default), each on a
timer of its own, and each ping's pong wakes the server again: a server with 200 players
connected wakes 20 times a second for keepalive alone, whether anyone plays or not.
`BeatKeepalive` is uvicorn's WebSocket protocol (the one it runs with the ``websockets``
package, which ``uvicorn[standard]`` installs) with each ping sent on the first
`PING_BEAT_S` beat after its interval (`service.beat`): the pings of many connections go
out in one wakeup (their pongs come back as each client answers). A ping goes out at
most one beat later than uvicorn would send it; the pong's deadline (``ws_ping_timeout``)
is uvicorn's. An idle node with 200 players connected woke 12-14 times a second instead
of 23-29 (docs/benchmarks/cluster.md).
"""

from __future__ import annotations

from typing import ClassVar, Final

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ..service.beat import next_beat

PING_BEAT_S: Final = 1.0
"""Keepalive pings go out on multiples of this (at most this much after their interval)."""


class BeatKeepalive(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, its keepalive pings sent on the beat."""

    ping_beat: ClassVar[float] = PING_BEAT_S

    def schedule_ping(self) -> None:
        interval = self.ping_interval
        assert interval is not None  # (uvicorn asks only when pings are on)
        now = self.loop.time()
        when = next_beat(now, max(0.0, interval - self.last_ping_rtt), self.ping_beat)
        self.ping_timer = self.loop.call_at(when, self.send_keepalive_ping)


__all__ = ["PING_BEAT_S", "BeatKeepalive"]
