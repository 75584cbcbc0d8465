"""The lobby of one node among several (see `cluster`).

Any node serves any table: a table is loaded from the records when a client asks for it
(once, however many ask at the same moment), kept up to date by the other nodes' news
and, where news was missed, by reading the records; lobby changes are checked against the
records and written under a compare-and-set; and each node drives (bots, turn timer) the
tables that rendezvous hashing gives it, loading them when it takes them over.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ..store import tables as records
from .lobby import MAX_TABLE_ID, Lobby
from .table import Table

log = logging.getLogger(__name__)

ADOPT_EVERY = 10
"""Every this many heartbeats a node looks for tables it should drive but has not loaded
(besides whenever the set of live nodes changes), and lets go of the tables nobody
watches through it and it does not drive."""
LOADS_AT_ONCE = 4
"""Tables loaded from the records at the same time (the rest wait their turn, so that a
crowd reconnecting after a node died does not hold up every other table's work)."""
ADOPT_AT_ONCE = 16
"""Tables loaded together when a node takes over (the database answers them in parallel)."""
EVICT_AFTER = 2
"""How many such looks in a row a table goes unwatched and undriven before it is let go
(loaded again from the records when someone asks)."""


class ClusterLobby(Lobby):
    """A `Lobby` whose tables live in the records, shared with other nodes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._loads = asyncio.Semaphore(LOADS_AT_ONCE)
        self._ticking: asyncio.Task[None] | None = None
        self._ticks = 0
        self._unwatched: dict[str, int] = {}
        self._behind: dict[str, int] = {}
        """Games whose records held more events at the last heartbeat than this node had:
        how many (news gets one beat to arrive before the records are read)."""
        self._background: set[asyncio.Task[None]] = set()

    # Loading -------------------------------------------------------------------------

    def load_unfinished(self) -> int:
        """Nothing at startup: tables load when asked for, or when this node takes over
        driving them."""
        return 0

    async def find(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            if self._idle(table):
                return None
            if table.live is not None:
                await table.live.refresh()  # a client is shown what the records hold
            return table
        if len(table_id) > MAX_TABLE_ID:
            return None
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _load(self, table_id: str) -> Table | None:
        async with self._loads:
            row = await asyncio.to_thread(records.load_table, self.store, table_id)
            if row is None or row.status in (records.CANCELLED, records.EXPIRED):
                return None
            loaded = await asyncio.to_thread(self._table_of, row)
        if self._idle(loaded):
            return None
        table = self.tables.setdefault(table_id, loaded)
        if table is loaded:
            self.cluster.publish({"k": "who", "t": table_id})  # who is connected elsewhere
        if table is loaded and table.live is not None:
            await table.live.refresh()  # what was committed while it loaded
            live = table.live
            await live.time_from_records()
            if live.session.is_over and row.status == records.PLAYING:
                await self.finish(table, recorded_here=False)  # its writer died first
            self.play(table)
        return table

    def _let_go_unless_needed(self, table: Table, *, driven: bool) -> None:
        """A table nobody watches through this node, which it does not drive (or whose
        game is over), is let go after a while: memory stays bounded."""
        needed = self.watched(table.id) or (
            driven and table.status in (records.LOBBY, records.PLAYING)
        )
        busy = table.lock.locked() or (table.live is not None and table.live.lock.locked())
        if needed or busy:
            self._unwatched.pop(table.id, None)
            return
        looks = self._unwatched[table.id] = self._unwatched.get(table.id, 0) + 1
        if looks >= EVICT_AFTER:
            del self._unwatched[table.id]
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            if table.live is not None:
                table.live.close()

    async def by_invite(self, invite: str) -> Table:
        found = await asyncio.to_thread(records.table_by_invite, self.store, invite)
        table = await self.find(found) if found is not None else None
        if table is None:
            raise self._bad_invite()
        return table

    def _quota(self, owner: str) -> records.Quota:
        """Tables are counted in the records (the owner's others may be on other nodes),
        in the transaction that records the new one."""
        return records.Quota(self.clock() - self.idle_timeout, self.max_tables_per_client)

    # Lobby changes -------------------------------------------------------------------

    async def _fresh(self, table: Table) -> None:
        """The table as the records hold it: seats, status, and its game once started."""
        row = await asyncio.to_thread(records.load_table, self.store, table.id)
        if row is not None:
            await self._apply(table, row)

    async def _apply(self, table: Table, row: records.TableRecord) -> None:
        table.status, table.active_at = row.status, row.active_at
        table.rematch = row.rematch or table.rematch
        for state, seat in zip(table.seats, row.seats, strict=True):
            if (state.name, state.bot, state.token_hash) == (seat.name, seat.bot, seat.token_hash):
                continue
            state.name, state.bot, state.token_hash = seat.name, seat.bot, seat.token_hash
            live = table.live
            if live is not None and seat.bot is not None and not live.session.is_bot(seat.seat):
                live.session.hand_to_bot(seat.seat, seat.bot)
        if row.game_id and table.live is None:
            self._serve(table, await asyncio.to_thread(self._resume, row))
        if row.status in (records.CANCELLED, records.EXPIRED):
            self.tables.pop(table.id, None)
            if table.live is not None:
                table.live.close()

    # News from the other nodes -------------------------------------------------------

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_report)

    async def on_message(self, message: dict[str, Any]) -> None:
        table_id, kind = str(message.get("t")), message.get("k")
        table = self.tables.get(table_id)
        if table is None:  # not served here: nothing to forward, unless it is ours to drive
            if kind in ("ev", "lobby") and self.cluster.owns(table_id):
                self._spawn(self.find(table_id))
            return
        if kind == "ev" and table.live is not None:
            events, first, deadline = message.get("e"), message.get("f"), message.get("d")
            if isinstance(events, list) and isinstance(first, int):
                when = float(deadline) if isinstance(deadline, int | float) else None
                self._spawn(table.live.sync(first, events, when))
        elif kind in ("ev", "lobby"):
            self._spawn(self._lobby_news(table))
        elif self.heard is not None:
            self.heard(table, message)

    async def _lobby_news(self, table: Table) -> None:
        async with table.lock:
            await self._fresh(table)
        if self.changed is not None:
            await self.changed(table)

    async def on_tick(self, *, nodes_changed: bool) -> None:
        if self._ticking is None or self._ticking.done():
            self._ticks += 1
            adopt = nodes_changed or self._ticks % ADOPT_EVERY == 0
            self._ticking = asyncio.create_task(self._tick(adopt=adopt))
            self._ticking.add_done_callback(_report)

    async def on_reconnect(self) -> None:
        self.missed()
        self._spawn(self._tick(adopt=True, missed=True))

    async def _tick(self, *, adopt: bool, missed: bool = False) -> None:
        """Catch up the tables whose news was missed (``missed``: news was lost, read
        every table behind at once; else a game is read once it was still behind what the
        records held a beat before: its news is late or lost); take over what this node
        drives."""
        served = {
            t.live.session.game_id: t
            for t in list(self.tables.values())
            if t.live is not None and t.live.session.game_id and not t.live.session.is_over
        }
        counts = await asyncio.to_thread(self.store.event_counts, list(served))
        behind, self._behind = self._behind, {}
        for game_id, recorded in counts.items():
            live = served[game_id].live
            if live is None or recorded <= live.committed_seq:
                continue
            if missed or behind.get(game_id, 0) > live.committed_seq:
                self._spawn(live.refresh(recorded))
            else:
                self._behind[game_id] = recorded
        if not adopt:
            return
        for table in list(self.tables.values()):
            driven = self.cluster.owns(table.id)
            if table.live is not None:
                if driven:
                    self.play(table)
                else:
                    table.live.stop_driving()
            self._let_go_unless_needed(table, driven=driven)
        playing = await asyncio.to_thread(records.playing_ids, self.store)
        wanted = [t for t in playing if t not in self.tables and self.cluster.owns(t)]
        for start in range(0, len(wanted), ADOPT_AT_ONCE):
            await asyncio.gather(*(self.find(t) for t in wanted[start : start + ADOPT_AT_ONCE]))


def _report(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("cluster work failed", exc_info=task.exception())


__all__ = ["ClusterLobby"]
