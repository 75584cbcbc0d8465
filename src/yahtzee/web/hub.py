"""The live-table hub: which connections watch which table, and what they are sent.

The game service (:class:`~yahtzee.service.Lobby`) owns the tables, their games, bots and
records; the hub only turns its committed moves into messages for the connected clients.
Sending never waits on a client: each message is serialized once and put on every
connection's own queue (:class:`~.connection.Connection`), so a move is published without
yielding, inside or outside any lock. Someone coming or going sends a small ``presence``
message (at most one per table every :attr:`Hub.presence_interval` seconds), never the
full state to everyone.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter, OrderedDict, deque
from typing import Final

from ..service import Lobby, Move, Table, warm_up
from ..store import Store
from .connection import CLOSE_SEAT_GONE, Answers, Connection, RateLimit
from .models import (
    ChatMessage,
    EventMessage,
    GameView,
    LobbyMessage,
    LobbyView,
    Outbound,
    PresenceMessage,
    StateMessage,
    You,
)

RATE_PER_SECOND: Final = 10.0
RATE_BURST: Final = 20.0
MAX_PER_ADDRESS: Final = 8
"""Connections from one client address at once (before their hello too)."""
MAX_PER_TABLE: Final = 64
"""Connections to one table at once (players and spectators)."""
PRESENCE_INTERVAL: Final = 0.5
HELLO_TIMEOUT: Final = 10.0
CHAT_KEPT: Final = 50
BUCKETS_KEPT: Final = 4096
SEATS_ANSWERED: Final = 4096
"""Seats whose recent intent ids are remembered (the least recently used are forgotten)."""


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
    ) -> None:
        self.lobby = Lobby(
            store,
            self.publish,
            bot_delay=bot_delay,
            max_tables_per_client=max_tables_per_client,
            seed=seed,
        )
        self.rate = rate
        self.burst = max(RATE_BURST, 2 * rate)
        self.max_per_address = MAX_PER_ADDRESS
        self.max_per_table = MAX_PER_TABLE
        self.presence_interval = PRESENCE_INTERVAL
        self.hello_timeout = HELLO_TIMEOUT
        self.connections: dict[str, dict[Connection, None]] = {}
        """The connections that said hello, by table (in the order they came)."""
        self.addresses: Counter[str] = Counter()
        """Open connections by client address (hello or not)."""
        self.sent: Counter[str] = Counter()
        """Messages queued, by type (what a test or an operator counts)."""
        self.chats: dict[str, deque[ChatMessage]] = {}
        self.solver_ready = asyncio.Event()
        self._buckets: dict[tuple[str, str], RateLimit] = {}
        self._answers: OrderedDict[tuple[str, int], Answers] = OrderedDict()
        self._presence_due: dict[str, asyncio.TimerHandle] = {}
        self._presence_sent: dict[str, float] = {}

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

    def join(self, table: Table, connection: Connection) -> bool:
        """A connection that said hello (``connection.seat`` set) joins its table: it
        gets the state, everyone else a presence update. False: the table is full."""
        watching = self.connections.setdefault(table.id, {})
        if len(watching) >= self.max_per_table:
            return False
        connection.table_id = table.id
        watching[connection] = None
        self.send(connection, self.snapshot(table, connection.seat))
        connection.saw_game = table.session is not None
        self._presence_changed(table.id)
        return True

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
        self._presence_changed(table_id)
        self._forget_buckets()

    def connected_seats(self, table: Table) -> set[int]:
        return {c.seat for c in self.connections.get(table.id, {}) if c.seat is not None}

    def spectators(self, table_id: str) -> int:
        return sum(1 for c in self.connections.get(table_id, {}) if c.seat is None)

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

    def snapshot(self, table: Table, seat: int | None) -> StateMessage:
        """The full state as committed: a move still being saved is not in it."""
        live = table.live
        game = live.committed_game() if live is not None else None
        return StateMessage(
            seq=live.committed_seq if live is not None else 0,
            table=self.lobby_view(table),
            you=You(seat=seat, role="spectator" if seat is None else "player"),
            game=GameView.of(game) if game is not None else None,
            chat=list(self.chats.get(table.id, ())),
            turn_deadline=live.deadline if live is not None else None,
            spectators=self.spectators(table.id),
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

    def chat(self, table: Table, seat: int, text: str) -> None:
        message = ChatMessage(seat=seat, name=table.seats[seat].name, text=text)
        kept = self.chats.get(table.id)
        if kept is None:
            kept = self.chats[table.id] = deque(maxlen=CHAT_KEPT)
        kept.append(message)
        self.broadcast(table.id, message)

    async def push_lobby(self, table: Table) -> None:
        """The lobby changed: connections of a seat handed on are closed (4409), each
        other one gets the lobby, or the whole state once its game has started. A table
        that has ended (cancelled, expired) is told so, and its connections closed."""
        watching = self.connections.get(table.id, {})
        gone = self.lobby.tables.get(table.id) is not table
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
            self.chats.pop(table.id, None)

    async def publish(self, table: Table, move: Move) -> None:
        """A committed move: each of its events, with the state after the move. Never
        yields (the live game calls it in order, move after move)."""
        live = table.live
        assert live is not None
        view = GameView.of(live.session.game)
        deadline = live.deadline
        first = move.seq - len(move.events) + 1
        for offset, event in enumerate(move.events):
            self.broadcast(table.id, EventMessage.of(first + offset, event, view, deadline))

    # Presence ------------------------------------------------------------------------

    def _presence_changed(self, table_id: str) -> None:
        if table_id in self._presence_due:
            return
        loop = asyncio.get_running_loop()
        last = self._presence_sent.get(table_id, -math.inf)
        delay = max(0.0, last + self.presence_interval - loop.time())
        self._presence_due[table_id] = loop.call_later(delay, self._send_presence, table_id)

    def _send_presence(self, table_id: str) -> None:
        self._presence_due.pop(table_id, None)
        watching = self.connections.get(table_id)
        if not watching:
            self._presence_sent.pop(table_id, None)
            return
        self._presence_sent[table_id] = asyncio.get_running_loop().time()
        seats = sorted({c.seat for c in watching if c.seat is not None})
        self.broadcast(
            table_id, PresenceMessage(connected=seats, spectators=self.spectators(table_id))
        )

    def close(self) -> None:
        """The server stops: no presence update is due any more."""
        for handle in self._presence_due.values():
            handle.cancel()
        self._presence_due.clear()


__all__ = ["CHAT_KEPT", "HELLO_TIMEOUT", "MAX_PER_ADDRESS", "MAX_PER_TABLE", "Hub"]
