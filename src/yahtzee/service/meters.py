"""The win-chance meter of each watched table, told to its listeners as `MeterRead`.

The meter is read from the game session (in a worker thread unless it is a quick
estimate, `service.meter.quick_meter`), under the live game's lock
(so that it is the committed game's), after each placement and when someone connects;
each change is told to the table's listeners (`MeterRead`), after the events it is as of
and before any later one. While the meter's table is being prepared its
progress is looked at every `METER_INTERVAL` seconds, until the preparation stalls for
`METER_STALL` seconds or nobody watches. A game over ends its meter.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Final

from ..core import Scorecard
from .meter import NOTHING, POLL_S, STALL_S, MeterReading, MeterWatch, quick_meter
from .room_events import MeterRead
from .table import Table

log = logging.getLogger(__name__)

METER_INTERVAL: Final = POLL_S
"""Seconds between looks at the win meter's table while it is being prepared."""
METER_STALL: Final = STALL_S
"""A preparation whose progress has not moved for this long is no longer watched (the next
placement or connection looks again)."""


@dataclass(frozen=True, slots=True)
class Meter:
    """A table's win-chance meter as last read (`GameSession.meter`), and the cards
    it was read for."""

    cards: tuple[Scorecard, ...]
    reading: MeterReading

    @property
    def settled(self) -> bool:
        """Read for good (nothing is being prepared): the same cards give the same meter."""
        return self.reading.settled


class WinMeters:
    """Every watched table's meter as last read, and the readings under way (see the
    module's notes). ``watched``: whether anyone is connected to a table; ``served``:
    whether a table is still the one served (not ended, nor replaced)."""

    def __init__(
        self,
        broadcast: Callable[[str, MeterRead], None],
        watched: Callable[[str], bool],
        served: Callable[[Table], bool],
    ) -> None:
        self.broadcast = broadcast
        self.watched = watched
        self.served = served
        self.interval = METER_INTERVAL
        self.stall = METER_STALL
        self._meters: dict[str, Meter] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}

    def last(self, table_id: str) -> Meter | None:
        """The table's meter as last read (None: not read, or its game is over)."""
        return self._meters.get(table_id)

    def reading(self, table_id: str) -> bool:
        """Whether the table's meter is being read, or looked at again while its table is
        prepared."""
        task = self._tasks.get(table_id)
        return task is not None and not task.done()

    def due(self, table_id: str, cards: tuple[Scorecard, ...], *, over: bool) -> bool:
        """Whether the meter is to be read (again) for these cards: it was not read for
        them, or its table is still being prepared; a game over drops the last meter."""
        meter = self._meters.get(table_id)
        if meter is None:
            return not over
        return not meter.settled or meter.cards != cards

    def refresh(self, table: Table) -> None:
        """Read the table's meter again soon (never waits): a change is broadcast. Only
        for a game in play that someone watches."""
        if table.live is None or not self.watched(table.id):
            return
        wake = self._wake.get(table.id)
        if wake is None:
            wake = self._wake[table.id] = asyncio.Event()
        wake.set()
        running = self._tasks.get(table.id)
        if running is None or running.done():
            self._tasks[table.id] = asyncio.create_task(self._watch(table, wake))

    def drop(self, table_id: str) -> None:
        """The table's game is over and nobody watches it: its last meter goes."""
        self._meters.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        """The table has ended: its meter goes, and any reading under way stops."""
        self._meters.pop(table_id, None)
        self._wake.pop(table_id, None)
        task = self._tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        """The server stops: every reading under way stops."""
        for table_id in list(self._tasks):
            self.forget(table_id)

    async def _watch(self, table: Table, wake: asyncio.Event) -> None:
        """Read the meter until it is settled, then once more for each wake-up; while its
        table is being prepared, every `interval` seconds (until the progress stalls for
        `stall` seconds or nobody watches)."""
        loop = asyncio.get_running_loop()
        watch = MeterWatch(stall_s=self.stall)
        try:
            while wake.is_set():
                wake.clear()
                meter = await self._read(table)
                if meter is None or not self.watched(table.id):
                    continue  # done, unless woken meanwhile
                if not watch.again(meter.reading, loop.time()):
                    continue
                with suppress(TimeoutError):  # (not wait_for: see `web.connection`)
                    async with asyncio.timeout(self.interval):
                        await wake.wait()
                wake.set()
        except Exception:
            log.exception("the win meter of table %s could not be read", table.id)
        finally:
            if self._tasks.get(table.id) is asyncio.current_task():
                del self._tasks[table.id]
                self._wake.pop(table.id, None)

    async def _read(self, table: Table) -> Meter | None:
        """Read the meter of the committed game and broadcast it if it changed (under the
        table's lock, so that it goes out after the events it is as of and before any
        later one). A reading that takes a worker thread is made of the cards as they
        were, without the lock (moves go on meanwhile), and shown only if the cards are
        still the same (else the placement since has asked for another). None: the table
        has no game in play any more, or the reading is out of date."""
        live = table.live
        if live is None or not self.served(table):
            return None
        async with live.lock:
            game = live.session.game
            cards, over = game.cards, game.is_over
            before = self._meters.get(table.id)
            if before is not None and before.settled and before.cards == cards:
                return before
            reading = quick_meter(live.session)  # (an estimate: at once)
            if reading is not None:
                meter = Meter(cards, reading)
                return self._show(table, live.committed_seq, meter, before, over=over)
        reading = await asyncio.to_thread(live.session.meter, cards, over=over)
        if table.live is not live or not self.served(table):
            return None
        async with live.lock:
            game = live.session.game
            if game.cards != cards or game.is_over != over:
                return None  # out of date: the placement since has woken the watch
            meter, before = Meter(cards, reading), self._meters.get(table.id)
            return self._show(table, live.committed_seq, meter, before, over=over)

    def _show(
        self, table: Table, seq: int, meter: Meter, before: Meter | None, *, over: bool
    ) -> Meter | None:
        """Broadcast a reading as of ``seq`` if it changed (under the table's lock), and
        keep it; None: the game is ``over`` (its meter ends)."""
        reading = meter.reading
        shown = reading.chances is not None or reading.progress is not None
        was = before.reading if before is not None else NOTHING
        placed = before is None or before.cards != meter.cards
        if reading != was or (shown and placed):
            self.broadcast(table.id, MeterRead(seq, reading))
        if over:
            self._meters.pop(table.id, None)
            return None
        self._meters[table.id] = meter
        return meter


__all__ = ["METER_INTERVAL", "METER_STALL", "Meter", "WinMeters"]
