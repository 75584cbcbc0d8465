"""Who is at each table: the seats and the spectators whose connections are alive.

Each table's room keeps who arrived and has not left (a connection of the server, say);
only the node that owns a table serves its connections, so the members here are the whole
of its presence. A member counts as here while it is heard from: the page pings every two
seconds, so one that sent nothing (pings included) for `AWAY_AFTER_S` seconds is on a
dead path (a phone in a tunnel, a network that swallows everything without closing
anything) and counts as away until something comes from it again. One look over every
member each `LOOK_BEAT_S` (on the server's beat) finds them,
while anyone is here; no member has a timer of its own.

Someone coming, going, falling silent or being heard again makes a small
`PresenceChanged` event, at most one per table every `PRESENCE_INTERVAL` seconds, never
the full state to everyone.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Final, Protocol

from .beat import next_beat
from .room_events import PresenceChanged

PRESENCE_INTERVAL: Final = 0.5
AWAY_AFTER_S: Final = 5.0
"""A connection nothing came from for this long counts as away."""
LOOK_BEAT_S: Final = 1.0
"""How often the members are looked over for silent ones (on this beat)."""


class Member(Protocol):
    """One who is at a table (a connection of the server): its seat (None: a spectator),
    when it was last heard from (monotonic seconds) and whether it counts as away."""

    seat: int | None
    heard: float
    away: bool


class Presence:
    """The presence of every table (see the module's notes); ``broadcast`` tells a table's
    listeners of a change."""

    def __init__(self, broadcast: Callable[[str, PresenceChanged], None]) -> None:
        self.members: dict[str, dict[Member, None]] = {}
        """Who is at each table (in the order they came)."""
        self.broadcast = broadcast
        self.interval = PRESENCE_INTERVAL
        self.away_after = AWAY_AFTER_S
        self._due: dict[str, asyncio.TimerHandle] = {}
        self._sent: dict[str, float] = {}
        self._look: asyncio.TimerHandle | None = None

    def arrive(self, table_id: str, member: Member) -> None:
        """``member`` is at the table from now on."""
        self.members.setdefault(table_id, {})[member] = None
        self.changed(table_id)

    def leave(self, table_id: str, member: Member) -> None:
        """``member`` has left the table (if it was there)."""
        here = self.members.get(table_id)
        if here is None or member not in here:
            return
        del here[member]
        if not here:
            del self.members[table_id]
        self.changed(table_id)

    def watched(self, table_id: str) -> bool:
        """Whether anyone is at the table."""
        return bool(self.members.get(table_id))

    def seats(self, table_id: str) -> set[int]:
        """The seats with a member that is here (not away)."""
        return {m.seat for m in self.members.get(table_id, {}) if m.seat is not None and not m.away}

    def spectators(self, table_id: str) -> int:
        """The spectators that are here."""
        return sum(1 for m in self.members.get(table_id, {}) if m.seat is None and not m.away)

    def heard(self, table_id: str, member: Member) -> bool:
        """Something came from the member: whether it was away (it is here again)."""
        member.heard = time.monotonic()
        if not member.away:
            return False
        member.away = False
        self.changed(table_id)
        return True

    def changed(self, table_id: str) -> None:
        """Someone came, went, fell silent or was heard again: a presence event is due."""
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
        """Every member nothing came from for `away_after` seconds is away now; the next
        look is due while anyone is here."""
        self._look = None
        silent_since = time.monotonic() - self.away_after
        for table_id, here in list(self.members.items()):
            fell_silent = False
            for member in here:
                if not member.away and member.heard < silent_since:
                    member.away = fell_silent = True
            if fell_silent:
                self.changed(table_id)
        if self._look is None and any(self.members.values()):
            self._look_later(asyncio.get_running_loop())

    def _send(self, table_id: str) -> None:
        self._due.pop(table_id, None)
        if not self.members.get(table_id):
            self._sent.pop(table_id, None)
            return
        self._sent[table_id] = asyncio.get_running_loop().time()
        changed = PresenceChanged(tuple(sorted(self.seats(table_id))), self.spectators(table_id))
        self.broadcast(table_id, changed)

    def close(self) -> None:
        """The server stops: no presence update nor look is due any more."""
        for handle in self._due.values():
            handle.cancel()
        self._due.clear()
        if self._look is not None:
            self._look.cancel()
            self._look = None


__all__ = ["AWAY_AFTER_S", "LOOK_BEAT_S", "PRESENCE_INTERVAL", "Member", "Presence"]
