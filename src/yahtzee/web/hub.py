"""The live-table hub: which connections watch which table, and what they are sent.

The game service (`Lobby`) owns the tables, their games, bots and
records; the hub only turns its committed moves into messages for the connected clients.
Only the node that owns a table serves its connections, so everything shown here
(presence, chat, held dice, the meter) is this node's own. Sending never waits on a
client: each message is serialized once and put on every connection's own queue
(`Connection`), so a move is published without yielding, inside or outside any lock.
Someone coming or going sends a small ``presence`` message (`presence`: at most one per
table every half second), never the full state to everyone. A chat line is recorded
before anyone is shown it, and each table's last lines are cached (`Chats`).

The win-chance meter is read from the game session in a worker thread, under the live
game's lock (so that it is the committed game's), after each placement and when someone
connects; each change goes out as a ``meter`` message. While the meter's table is being
prepared its progress is looked at every `Hub.meter_interval` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, OrderedDict
from contextlib import suppress
from dataclasses import dataclass
from typing import Final

from ..core import Event, IllegalMove, Scorecard
from ..service import Cluster, Lobby, Table, open_lobby, warm_up
from ..service.meter import NOTHING, POLL_S, STALL_S, MeterReading, MeterWatch
from ..store import Store
from .chat import CHAT_KEPT, Chats
from .connection import CLOSE_MOVED, CLOSE_SEAT_GONE, Answers, Connection, RateLimit
from .messages import (
    EventMessage,
    HoldMessage,
    LobbyMessage,
    MeterMessage,
    Outbound,
    StateMessage,
    You,
)
from .models import GameView, LobbyView
from .presence import Presence

log = logging.getLogger("yahtzee.web")

RATE_PER_SECOND: Final = 10.0
RATE_BURST: Final = 20.0
MAX_PER_ADDRESS: Final = 8
"""Connections from one client address at once (before their hello too)."""
MAX_SPECTATORS_PER_TABLE: Final = 64
"""Spectators' connections to one table at once (a spectator link is public: a crowd of
them never keeps a player out)."""
MAX_PER_SEAT: Final = 8
"""Connections of one seat at once (tabs and devices): a player is admitted whatever the
spectators, within this."""
HELLO_TIMEOUT: Final = 10.0
BUCKETS_KEPT: Final = 4096
SEATS_ANSWERED: Final = 4096
"""Seats whose recent intent ids are remembered (the least recently used are forgotten)."""
METER_INTERVAL: Final = POLL_S
"""Seconds between looks at the win meter's table while it is being prepared."""
METER_STALL: Final = STALL_S
"""A preparation whose progress has not moved for this long is no longer watched (the next
placement or connection looks again)."""

Progress = tuple[int, int]


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


class Hub:
    """Every connection, by table; the lobby of the game service behind them."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float,
        rate: float = RATE_PER_SECOND,
        max_tables_per_client: int,
        seed: int | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.lobby: Lobby = open_lobby(
            store,
            self,
            bot_delay=bot_delay,
            max_tables_per_client=max_tables_per_client,
            seed=seed,
            cluster=cluster,
        )
        self.rate = rate
        self.burst = max(RATE_BURST, 2 * rate)
        self.max_per_address = MAX_PER_ADDRESS
        self.max_spectators = MAX_SPECTATORS_PER_TABLE
        self.max_per_seat = MAX_PER_SEAT
        self.hello_timeout = HELLO_TIMEOUT
        self.connections: dict[str, dict[Connection, None]] = {}
        """The connections that said hello, by table (in the order they came)."""
        self.addresses: Counter[str] = Counter()
        """Open connections by client address (hello or not)."""
        self.sent: Counter[str] = Counter()
        """Messages queued, by type (what a test or an operator counts)."""
        self.chats = Chats(store, self.broadcast, self.watched)
        self.solver_ready = asyncio.Event()
        self._buckets: dict[tuple[str, str], RateLimit] = {}
        self._answers: OrderedDict[tuple[str, int], Answers] = OrderedDict()
        self.presence = Presence(self.connections, self.broadcast)
        self.meter_interval = METER_INTERVAL
        self.meter_stall = METER_STALL
        self._meters: dict[str, Meter] = {}
        self._meter_tasks: dict[str, asyncio.Task[None]] = {}
        self._meter_wake: dict[str, asyncio.Event] = {}

    async def warm_up(self) -> None:
        """Get the solver ready while the server already answers: the official table
        (shipped with the package), a bot's first move and the compiled kernels (compiled
        aside, in a child process). Games play meanwhile, on numpy turns."""
        try:
            await asyncio.to_thread(warm_up, compile_kernels=True)
        finally:
            self.solver_ready.set()

    # Connections ---------------------------------------------------------------------

    def admit(self, connection: Connection) -> bool:
        """Count a new connection against its address's cap (False: over it)."""
        if self.addresses[connection.address] >= self.max_per_address:
            return False
        self.addresses[connection.address] += 1
        connection.admitted = True
        return True

    async def join(self, table: Table, connection: Connection) -> str | None:
        """A connection that said hello (``connection.seat`` set) joins its table: it
        gets the state, everyone else a presence update. Else why not: its seat has
        `MAX_PER_SEAT` connections, or the spectators' `MAX_SPECTATORS_PER_TABLE`."""
        await self.chats.ready(table.id)  # (read from the records on first use)
        watching = self.connections.setdefault(table.id, {})
        alike = sum(1 for c in watching if c.seat == connection.seat)
        if connection.seat is not None and alike >= self.max_per_seat:
            return "too many connections for this seat"
        if connection.seat is None and alike >= self.max_spectators:
            return "too many spectators at this table"
        connection.table_id = table.id
        watching[connection] = None
        self.send(connection, self.snapshot(table, connection.seat))
        connection.saw_game = table.session is not None
        self.presence.changed(table.id)
        return None

    def leave(self, connection: Connection) -> None:
        """A connection ended (whether or not it was admitted, or joined a table)."""
        if connection.admitted:
            connection.admitted = False
            self.addresses[connection.address] -= 1
            if self.addresses[connection.address] <= 0:
                del self.addresses[connection.address]
        table_id = connection.table_id
        watching = self.connections.get(table_id) if table_id is not None else None
        if table_id is None or watching is None or connection not in watching:
            return
        del watching[connection]
        if not watching:
            del self.connections[table_id]
        self.presence.changed(table_id)
        self._forget_buckets()

    def watched(self, table_id: str) -> bool:
        """Whether anyone is connected to the table here."""
        return bool(self.connections.get(table_id))

    def connected_seats(self, table: Table) -> set[int]:
        return self.presence.seats(table.id)

    def spectators(self, table_id: str) -> int:
        return self.presence.spectators(table_id)

    def still_seated(self, table: Table, connection: Connection) -> bool:
        """Whether a player's connection still acts for its seat (the seat was not handed
        on since its hello). Spectators always are what they were."""
        seat = connection.seat
        return seat is None or table.seats[seat].token_hash == connection.token_hash

    # Limits --------------------------------------------------------------------------

    def rate_limit(self, connection: Connection) -> RateLimit:
        """The bucket a message counts against: its seat's (shared by all the seat's
        connections), or for spectators their address's."""
        key = (
            (f"seat:{connection.table_id}", str(connection.seat))
            if connection.seat is not None
            else ("address", connection.address)
        )
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimit(self.rate, self.burst)
        return bucket

    def _forget_buckets(self) -> None:
        if len(self._buckets) > BUCKETS_KEPT:
            for key in [k for k, b in self._buckets.items() if b.full]:
                del self._buckets[key]

    def answers(self, connection: Connection) -> Answers:
        """The answers to a seat's intents with ids (shared by its connections); a
        spectator's own."""
        if connection.seat is None or connection.table_id is None:
            return connection.answers
        key = (connection.table_id, connection.seat)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = Answers()
            while len(self._answers) > SEATS_ANSWERED:
                self._answers.popitem(last=False)
        else:  # kept across reconnections: a client resends what got no answer
            self._answers.move_to_end(key)
        return found

    # Views ---------------------------------------------------------------------------

    def lobby_view(self, table: Table) -> LobbyView:
        return LobbyView.of(table, self.connected_seats(table))

    async def state(self, table: Table, seat: int | None) -> StateMessage:
        """`snapshot`, the table's chat read from the records first unless cached."""
        await self.chats.ready(table.id)
        return self.snapshot(table, seat)

    def snapshot(self, table: Table, seat: int | None) -> StateMessage:
        """The full state as committed: a move still being saved is not in it (nor the
        chat before `Chats.ready`: see `state`)."""
        live = table.live
        game = live.committed_game() if live is not None else None
        meter = self._meters.get(table.id)
        current = meter is not None and game is not None and meter.cards == game.cards
        chances = meter.reading.chances if meter is not None and current else None
        if game is not None and self._meter_due(table.id, game.cards, over=game.is_over):
            self.refresh_meter(table)  # what it finds follows in a meter message
        return StateMessage(
            seq=live.committed_seq if live is not None else 0,
            table=self.lobby_view(table),
            you=You(seat=seat, role="spectator" if seat is None else "player"),
            game=GameView.of(game, live.tray_for(game), undo_on=live.session.undo_on)
            if live and game
            else None,
            chat=self.chats.shown(table.id),
            turn_deadline=live.deadline if live is not None else None,
            spectators=self.spectators(table.id),
            win_chances=list(chances) if chances is not None else None,
            meter_progress=meter.reading.progress if meter is not None else None,
            meter_estimate=meter.reading.estimate if meter is not None and current else False,
            meter_margin=meter.reading.margin if meter is not None and current else None,
        )

    # Sending (never waits) -----------------------------------------------------------

    def send(self, connection: Connection, message: Outbound) -> None:
        self.sent[message.type] += 1
        connection.offer(message.model_dump_json())

    def broadcast(self, table_id: str, message: Outbound) -> None:
        watching = self.connections.get(table_id)
        if not watching:
            return
        text = message.model_dump_json()
        self.sent[message.type] += len(watching)
        for connection in list(watching):
            connection.offer(text)

    async def chat(self, table: Table, seat: int, text: str) -> None:
        """A player's chat line: recorded, then shown to everyone at the table."""
        await self.chats.say(table, seat, text)

    def hold(self, table: Table, seat: int, held: tuple[int, ...]) -> int:
        """The player to move holds these dice: kept, and shown to everyone at the table;
        the committed sequence number it is for."""
        live = table.live
        if live is None:
            raise IllegalMove("The game has not started yet.", code="not_started")
        seq = live.hold(seat, held)
        self.broadcast(table.id, HoldMessage(seq=seq, player=seat, held=list(held)))
        return seq

    async def push_lobby(self, table: Table) -> None:
        """The lobby changed: connections of a seat handed on are closed (4409), each
        other one gets the lobby, or the whole state once its game has started. A table
        that has ended (cancelled, expired) is told so, and its connections closed."""
        watching = self.connections.get(table.id, {})
        gone = self.lobby.tables.get(table.id) is not table
        if watching and not gone:
            await self.chats.ready(table.id)  # for a state (cached: a connection read it)
        if table.live is not None and not gone:
            table.live.schedule()  # the turn timer's deadline is part of the state
        lobby = LobbyMessage(table=self.lobby_view(table))
        for connection in list(watching):
            if not self.still_seated(table, connection):
                connection.close(CLOSE_SEAT_GONE, "this seat was handed to a bot")
            elif connection.saw_game or table.session is None:
                self.send(connection, lobby)
            else:
                self.send(connection, self.snapshot(table, connection.seat))
                connection.saw_game = True
            if gone:
                connection.close(1000, "the table has ended")
        if gone:
            self.chats.forget(table.id)
            self._forget_meter(table.id)

    async def changed(self, table: Table) -> None:
        """The lobby's word that a table changed (`push_lobby`)."""
        await self.push_lobby(table)

    def moved(self, table_id: str) -> None:
        """Another node owns the table now: its connections here close (`CLOSE_MOVED`),
        and their clients reconnect to the owner."""
        for connection in list(self.connections.get(table_id, {})):
            connection.close(CLOSE_MOVED, "the table moved to another server node")

    def published(self, table: Table, seq: int, events: tuple[Event, ...]) -> None:
        """A committed move: each of its events, with the state after the move (``seq``:
        its last event's). Called in order, move after move."""
        live = table.live
        assert live is not None
        if not self.connections.get(table.id):  # nobody here to tell (a bot's node)
            if live.session.game.is_over:
                self._meters.pop(table.id, None)
            return
        view = GameView.of(live.session.game, live.tray, undo_on=live.session.undo_on)
        deadline = live.deadline
        first = seq - len(events) + 1
        for offset, event in enumerate(events):
            self.broadcast(table.id, EventMessage.of(first + offset, event, view, deadline))
        game = live.session.game
        if self._meter_due(table.id, game.cards, over=game.is_over):
            self.refresh_meter(table)  # a game over: its watchers are told the meter ends
        if game.is_over and not self.connections.get(table.id):
            self._meters.pop(table.id, None)

    # The win-chance meter ------------------------------------------------------------

    def _meter_due(self, table_id: str, cards: tuple[Scorecard, ...], *, over: bool) -> bool:
        """Whether the meter is to be read (again) for these cards: it was not read for
        them, or its table is still being prepared; a game over drops the last meter."""
        meter = self._meters.get(table_id)
        if meter is None:
            return not over
        return not meter.settled or meter.cards != cards

    def refresh_meter(self, table: Table) -> None:
        """Read the table's meter again soon (never waits): a change is broadcast. Only
        for a game in play that someone watches."""
        if table.live is None or not self.connections.get(table.id):
            return
        wake = self._meter_wake.get(table.id)
        if wake is None:
            wake = self._meter_wake[table.id] = asyncio.Event()
        wake.set()
        running = self._meter_tasks.get(table.id)
        if running is None or running.done():
            self._meter_tasks[table.id] = asyncio.create_task(self._watch_meter(table, wake))

    async def _watch_meter(self, table: Table, wake: asyncio.Event) -> None:
        """Read the meter until it is settled, then once more for each wake-up; while its
        table is being prepared, every `meter_interval` seconds (until the progress
        stalls for `meter_stall` seconds or nobody watches)."""
        loop = asyncio.get_running_loop()
        watch = MeterWatch(stall_s=self.meter_stall)
        try:
            while wake.is_set():
                wake.clear()
                meter = await self._read_meter(table)
                if meter is None or not self.connections.get(table.id):
                    continue  # done, unless woken meanwhile
                if not watch.again(meter.reading, loop.time()):
                    continue
                with suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.meter_interval)
                wake.set()
        except Exception:
            log.exception("the win meter of table %s could not be read", table.id)
        finally:
            if self._meter_tasks.get(table.id) is asyncio.current_task():
                del self._meter_tasks[table.id]
                self._meter_wake.pop(table.id, None)

    async def _read_meter(self, table: Table) -> Meter | None:
        """Read the meter of the committed game and broadcast it if it changed (the lock
        keeps moves out meanwhile, so it goes out after the events it is as of and before
        any later one). None: the table has no game in play any more."""
        live = table.live
        if live is None or self.lobby.tables.get(table.id) is not table:
            return None
        async with live.lock:
            game = live.session.game
            cards, seq = game.cards, live.committed_seq
            before = self._meters.get(table.id)
            if before is not None and before.settled and before.cards == cards:
                return before
            reading = NOTHING
            if not game.is_over:
                reading = await asyncio.to_thread(live.session.meter)
            meter = Meter(cards, reading)
            shown = reading.chances is not None or reading.progress is not None
            was = before.reading if before is not None else NOTHING
            placed = before is None or before.cards != cards
            if reading != was or (shown and placed):
                self.broadcast(table.id, MeterMessage.of(seq, reading))
            if game.is_over:
                self._meters.pop(table.id, None)
                return None
            self._meters[table.id] = meter
            return meter

    def _forget_meter(self, table_id: str) -> None:
        self._meters.pop(table_id, None)
        self._meter_wake.pop(table_id, None)
        task = self._meter_tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    def close(self) -> None:
        """The server stops: no presence update is due any more."""
        self.presence.close()
        self.chats.close()
        for table_id in list(self._meter_tasks):
            self._forget_meter(table_id)


__all__ = [
    "CHAT_KEPT",
    "HELLO_TIMEOUT",
    "MAX_PER_ADDRESS",
    "MAX_PER_SEAT",
    "MAX_SPECTATORS_PER_TABLE",
    "METER_INTERVAL",
    "Hub",
]
