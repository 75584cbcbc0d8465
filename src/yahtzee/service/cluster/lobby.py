"""The lobby of one node among several (see `cluster.node`): it serves only the tables
whose lease it holds.

A table is claimed and loaded from the records when a client first asks this node for
it (once, however many ask at the same moment), or when this node takes it over from a
dead one; for a table another node holds the cluster answers `Elsewhere` (`locate`),
and the front end relays the request there. A new table is only recorded: whichever node
is asked for it first (the one the load balancer's hash on its id picks) claims it. A
table nobody watches through this node and that needs no driving here (no game under
way) is let go after a while, so that memory and leases stay bounded (a turn-by-turn table
whose players are away and whose bots are not playing needs no driving: the sweep of
deadlines claims it again when its time runs out); a lease found lost is let go at once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from ...store import tables as records
from ..batcher import Batcher
from ..lobby import Lobby
from ..table import MAX_ID, Table
from . import Elsewhere, Moved

if TYPE_CHECKING:
    from .node import RedisCluster
    from .wire import Incarnation

log = logging.getLogger(__name__)

LOADS_AT_ONCE = 64
"""Tables loaded from the records together, in a few statements, at most (the rest wait
for the next batch: a crowd reconnecting after a node died is read in a few round trips,
not thousands)."""
EVICT_AFTER = 3
"""How many heartbeats in a row a table goes unwatched and undriven before it is let go
(claimed and loaded again by whichever node is asked for it next)."""


class ClusterLobby(Lobby):
    """A `Lobby` that serves the tables this node owns (see the module's notes)."""

    cluster: RedisCluster

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loading: dict[str, asyncio.Future[Table | Elsewhere | None]] = {}
        self._loads: Batcher[str, _Loaded] = Batcher(
            self._read, LOADS_AT_ONCE, stopped=lambda table_id: Moved(Elsewhere(table_id))
        )
        self._unwatched: dict[str, int] = {}
        self._background: set[asyncio.Task[None]] = set()

    # Finding and claiming ------------------------------------------------------------

    def load_unfinished(self) -> int:
        """Nothing at startup: tables load when asked for, or when taken over."""
        return 0

    def _keep(self, table: Table) -> None:
        """A new table is only recorded: the node first asked for it claims it."""
        if table.live is not None:
            table.live.close()

    async def locate(self, table_id: str) -> Table | Elsewhere | None:
        """The table if this node owns it (claimed now if nobody does), where it is
        served if another node does, or None (no such table, or it has ended)."""
        table = self.tables.get(table_id)
        if table is not None:
            if self.cluster.owns(table_id):
                return None if self._idle(table) else table
            if table_id in self.cluster.owned:  # our renewal is late: not now
                return Elsewhere(table_id)
            self._drop(table)
        if len(table_id) > MAX_ID:
            return None
        return await self._claimed(table_id, None)

    async def _claimed(
        self, table_id: str, previous: Incarnation | None
    ) -> Table | Elsewhere | None:
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._claim_and_load(table_id, previous))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _claim_and_load(
        self, table_id: str, previous: Incarnation | None
    ) -> Table | Elsewhere | None:
        elsewhere = await self.cluster.claim(table_id, previous)
        if elsewhere is not None:
            return elsewhere
        try:
            row, loaded = await self._load(table_id)
        except BaseException as error:
            await self.cluster.release(table_id)
            if isinstance(error, Moved):  # this node stops: nobody serves it a moment
                return error.elsewhere
            raise
        if loaded is None or self._idle(loaded):
            await self.cluster.release(table_id)
            return None
        table = self.tables.setdefault(table_id, loaded)
        if table is loaded and table.live is not None:
            live = table.live
            await live.time_from_records()
            if live.session.is_over and row is not None and row.status == records.PLAYING:
                await self.finish(table)  # its writer died first
            self.play(table)
        return table

    async def _load(self, table_id: str) -> _Loaded:
        """The table's record and the table served from it (None: no such table, or it
        has ended). Tables asked for at about the same time are read together, up to
        `LOADS_AT_ONCE` in a few statements (a dead node's crowd of tables)."""
        return await self._loads.ask(table_id)

    def _read(self, table_ids: list[str]) -> dict[str, _Loaded]:
        """(In a worker thread.)"""
        rows = records.load_tables(self.store, table_ids)
        live = [r for r in rows.values() if r.status not in (records.CANCELLED, records.EXPIRED)]
        loaded: dict[str, _Loaded] = dict.fromkeys(table_ids, (None, None))
        for row, table in zip(live, self._tables_of(live), strict=True):
            loaded[row.id] = (row, table)
        return loaded

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

    async def _apply(self, table: Table, row: records.TableRecord) -> None:
        """The records' version of a table (its start found it changed: a node that
        owned it a moment ago wrote last)."""
        table.status, table.active_at = row.status, row.active_at
        table.rematch = row.rematch or table.rematch
        for state, seat in zip(table.seats, row.seats, strict=True):
            state.name, state.bot, state.token_hash = seat.name, seat.bot, seat.token_hash
        if row.game_id and table.live is None:
            self._serve(table, await asyncio.to_thread(self._resume, row))

    # Letting go ----------------------------------------------------------------------

    def _drop(self, table: Table) -> None:
        """This node serves the table no more (whoever is at it here is told)."""
        room = self.room(table)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self._rooms.pop(table.id, None)
        self._unwatched.pop(table.id, None)
        if table.live is not None:
            table.live.close()
        room.moved_away()

    async def on_lost(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is not None:
                log.warning("lost the lease of table %s: another node serves it now", table_id)
                self._drop(table)

    async def on_adopt(self, tables: list[tuple[str, Incarnation]]) -> None:
        """Take over a dead node's tables (in the background, `LOADS_AT_ONCE` at a time)."""
        for table_id, dead in tables:
            if table_id not in self.tables and table_id not in self._loading:
                self._spawn(self._adopt(table_id, dead))

    async def _adopt(self, table_id: str, dead: Incarnation) -> None:
        await self._claimed(table_id, dead)  # (Elsewhere: another node was first)

    async def on_tick(self) -> None:
        """Let go of the tables nobody watches here that need no driving."""
        for table in list(self.tables.values()):
            if self._needed(table):
                self._unwatched.pop(table.id, None)
                continue
            looks = self._unwatched[table.id] = self._unwatched.get(table.id, 0) + 1
            if looks >= EVICT_AFTER:
                self._drop(table)
                self._spawn(self.cluster.release(table.id))

    def let_go_idle(self) -> list[Table]:
        """Nothing: `on_tick` lets go of every table not needed here (a resting
        turn-by-turn table among them), and releases its lease."""
        return []

    def _needed(self, table: Table) -> bool:
        busy = table.lock.locked() or (table.live is not None and table.live.lock.locked())
        playing = table.status == records.PLAYING and table.live is not None
        return busy or self.presence.watched(table.id) or (playing and _driven(table))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_report)


_Loaded = tuple[records.TableRecord | None, Table | None]


def _driven(table: Table) -> bool:
    """Whether the table's game moves without anyone connected (a bot or a turn timer).
    A turn-by-turn table's timer is the sweep's (`Lobby.sweep_deadlines`, on every node:
    the node that claims it applies it): resting, it needs no node."""
    live = table.live
    if live is None or live.session.is_over:
        return False
    if table.turn_by_turn and live.resting:
        return False
    return bool(live.turn_timer) or any(s.bot is not None for s in table.seats)


def _report(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("cluster work failed", exc_info=task.exception())


__all__ = ["ClusterLobby"]
