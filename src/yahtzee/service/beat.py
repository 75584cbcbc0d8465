"""The server's beat: the moments at which paced work (a bot's moves, shown `bot_delay`
apart) is done, shared by every table a server drives.

A bot that waits "half a second" wakes at the first beat after half a second, so the bots
of many tables wake together: one wakeup of the server, one group commit, one round of
sends, where each would otherwise wake it on its own (a node at 200 tables woke 2.6 times
per acknowledged action instead of 4.0: docs/benchmarks/cluster.md). Each wakeup costs a
server CPU besides the work, and leaving an idle state costs a machine time; a wait at
most one beat longer is not seen at the pace of a bot's moves. The beats are on the
monotonic clock, which is the same for every process on a machine, so that several
servers' beats fall together too.
"""

from __future__ import annotations

import asyncio
import math

BEAT_S = 0.05
"""Time between two beats: paced waits end on a multiple of it (at most this much later
than asked)."""


def next_beat(now: float, delay: float, beat: float = BEAT_S) -> float:
    """The first beat at least ``delay`` after ``now`` (``now`` itself when ``delay`` is 0)."""
    if delay <= 0.0:
        return now
    when = math.ceil((now + delay) / beat) * beat
    return when if when >= now + delay else when + beat  # (a rounding of the division)


async def sleep_to_beat(delay: float) -> None:
    """Wait at least ``delay`` seconds, until the next beat after it (only yield when
    ``delay`` is 0: unpaced, as in tests and with ``--bot-delay 0``)."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    when = next_beat(now, delay)
    if when <= now:
        await asyncio.sleep(0)
        return
    woken: asyncio.Future[None] = loop.create_future()
    handle = loop.call_at(when, _wake, woken)
    try:
        await woken
    finally:
        handle.cancel()


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)
