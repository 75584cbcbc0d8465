"""The live-table hub: what the connections of each table are sent, and when.

The game service (`Lobby`) owns the tables, their games, bots and records; the hub is
the lobby's listener (`LobbyListener`), and turns its committed moves and lobby changes
into messages for the connected clients. Only the node that owns a table serves its
connections, so everything the hub shows (presence, chat, held dice, the win meter) is
this node's own. The app builds the hub, then the lobby with the hub as its listener,
then hands the hub the lobby to serve (`Hub.serve`).

The hub composes the parts that each do one job: who is let in and the caps
(`Admission`), the answers to each seat's intents (`SeatAnswers`), who is connected
(`Presence`), the chat (`Chats`) and the win meter (`WinMeters`). Sending never waits on
a client: each message is serialized once and put on every connection's own queue
(`Connection`), so a move is published without yielding, inside or outside any lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import Counter
from typing import Final

from ..core import Event, IllegalMove
from ..service import Lobby, Table, warm_up
from ..store import Store
from .admission import RATE_PER_SECOND, Admission
from .answers import SeatAnswers
from .chat import Chats
from .connection import CLOSE_MOVED, CLOSE_SEAT_GONE, Answers, Connection, RateLimit
from .messages import (
    EventMessage,
    HoldMessage,
    LobbyMessage,
    Outbound,
    PlayedForMessage,
    PongMessage,
    StateMessage,
    You,
)
from .models import GameView, LobbyView
from .presence import Presence
from .win_meter import WinMeters

HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has to say hello (its seat's token or the spectator key)."""
PONG: Final = PongMessage().model_dump_json()


class Hub:
    """Every connection, by table, and what they are sent; the listener of the lobby it
    serves (see the module's notes)."""

    def __init__(self, store: Store, *, rate: float = RATE_PER_SECOND) -> None:
        self.hello_timeout = HELLO_TIMEOUT
        self.admission = Admission(rate=rate)
        self.connections = self.admission.connections
        """The connections that said hello, by table (in the order they came)."""
        self.addresses = self.admission.addresses
        """Open connections by client address (hello or not)."""
        self.sent: Counter[str] = Counter()
        """Messages queued, by type (what a test or an operator counts)."""
        self.seat_answers = SeatAnswers()
        self.presence = Presence(self.connections, self.broadcast)
        self.chats = Chats(store, self.broadcast, self.watched)
        self.meters = WinMeters(self.broadcast, self.watched, self.serves)
        self.solver_ready = asyncio.Event()
        self._lobby: Lobby | None = None

    def serve(self, lobby: Lobby) -> None:
        """Serve the connections of this lobby's tables (built with this hub as its
        listener)."""
        assert lobby.listener is self, "the lobby tells another listener of its tables"
        self._lobby = lobby

    @property
    def lobby(self) -> Lobby:
        """The lobby served (see `serve`)."""
        assert self._lobby is not None, "the hub serves no lobby yet"
        return self._lobby

    def serves(self, table: Table) -> bool:
        """Whether the table is one the lobby serves (not ended, nor replaced)."""
        return self._lobby is not None and self._lobby.tables.get(table.id) is table

    async def warm_up(self) -> None:
        """Get the solver ready while the server already answers: the official table
        (shipped with the package), a bot's first move and the compiled kernels (compiled
        aside, in a child process). Games play meanwhile, on numpy turns.

        It runs in a thread of its own that the server's end does not wait for: the first
        start after an install compiles for tens of seconds, and a Ctrl-C then stops the
        server at once (the event loop's own threads would be waited for)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def tell() -> None:
            if not done.done():
                done.set_result(None)

        def work() -> None:
            try:
                warm_up(compile_kernels=True)
            finally:
                with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                    loop.call_soon_threadsafe(tell)

        threading.Thread(target=work, name="solver warm-up", daemon=True).start()
        try:
            await done
        finally:
            self.solver_ready.set()

    # Connections ---------------------------------------------------------------------

    def admit(self, connection: Connection) -> bool:
        """Count a new connection against its address's cap (False: over it)."""
        return self.admission.admit(connection)

    async def join(self, table: Table, connection: Connection) -> str | None:
        """A connection that said hello (``connection.seat`` set) joins its table: it
        gets the state, everyone else a presence update. Else why not (`Admission.enter`)."""
        await self.chats.ready(table.id)  # (read from the records on first use)
        refused = self.admission.enter(table.id, connection)
        if refused is not None:
            return refused
        self.send(connection, self.snapshot(table, connection.seat))
        connection.saw_game = table.session is not None
        self.presence.changed(table.id)
        self.tell_played_for(table, connection)
        return None

    def heard(self, table: Table, connection: Connection) -> None:
        """A message came from the connection: it is here (`Presence`); back after it was
        away, a player hears what was played for them meanwhile."""
        if self.presence.heard(table.id, connection):
            self.tell_played_for(table, connection)

    def tell_played_for(self, table: Table, connection: Connection) -> None:
        """A player back at the table is told what the turn timer played for them since
        they last acted (if anything)."""
        live, seat = table.live, connection.seat
        played = live.played_for(seat) if live is not None and seat is not None else ()
        if played and seat is not None:
            self.send(connection, PlayedForMessage.of(seat, played))

    def pong(self, connection: Connection) -> None:
        """The answer to a ping (one text for all)."""
        self.sent["pong"] += 1
        connection.offer(PONG)

    def leave(self, connection: Connection) -> None:
        """A connection ended (whether or not it was admitted, or joined a table)."""
        table_id = self.admission.leave(connection)
        if table_id is not None:
            self.presence.changed(table_id)

    def still_seated(self, table: Table, connection: Connection) -> bool:
        """Whether a player's connection still acts for its seat (the seat was not handed
        on since its hello). Spectators always are what they were."""
        seat = connection.seat
        return seat is None or table.seats[seat].token_hash == connection.token_hash

    def rate_limit(self, connection: Connection) -> RateLimit:
        """The bucket a message of the connection counts against (`Admission`)."""
        return self.admission.rate_limit(connection)

    def answers(self, connection: Connection) -> Answers:
        """The answers to a seat's intents with ids (shared by its connections); a
        spectator's own."""
        return self.seat_answers.of(connection)

    # Views ---------------------------------------------------------------------------

    def lobby_view(self, table: Table) -> LobbyView:
        return LobbyView.of(table, self.presence.seats(table.id))

    async def state(self, table: Table, seat: int | None) -> StateMessage:
        """`snapshot`, the table's chat read from the records first unless cached."""
        await self.chats.ready(table.id)
        return self.snapshot(table, seat)

    def snapshot(self, table: Table, seat: int | None) -> StateMessage:
        """The full state as committed: a move still being saved is not in it (nor the
        chat before `Chats.ready`: see `state`)."""
        live = table.live
        game = live.committed_game() if live is not None else None
        meter = self.meters.last(table.id)
        current = meter is not None and game is not None and meter.cards == game.cards
        chances = meter.reading.chances if meter is not None and current else None
        if game is not None and self.meters.due(table.id, game.cards, over=game.is_over):
            self.meters.refresh(table)  # what it finds follows in a meter message
        return StateMessage(
            seq=live.committed_seq if live is not None else 0,
            table=self.lobby_view(table),
            you=You(seat=seat, role="spectator" if seat is None else "player"),
            game=GameView.of(game, live.tray_for(game), undo_on=live.session.undo_on)
            if live and game
            else None,
            chat=self.chats.shown(table.id),
            turn_deadline=live.deadline if live is not None else None,
            spectators=self.presence.spectators(table.id),
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
        if self.connections.get(table_id):
            self.broadcast_text(table_id, message.type, message.model_dump_json())

    def broadcast_text(self, table_id: str, kind: str, text: str) -> None:
        """A message already serialized (of type ``kind``) to each connection to the table."""
        watching = self.connections.get(table_id)
        if not watching:
            return
        self.sent[kind] += len(watching)
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
        watching = self.admission.watching(table.id)
        gone = not self.serves(table)
        if watching and not gone:
            await self.chats.ready(table.id)  # for a state (cached: a connection read it)
        if table.live is not None and not gone:
            table.live.schedule()  # the turn timer's deadline is part of the state
        lobby = LobbyMessage(table=self.lobby_view(table))
        for connection in watching:
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
            self.meters.forget(table.id)

    # The lobby's listener (`LobbyListener`) ------------------------------------------

    def published(self, table: Table, seq: int, events: tuple[Event, ...]) -> None:
        """A committed move: each of its events, with the state after the move (``seq``:
        its last event's). Called in order, move after move."""
        live = table.live
        assert live is not None
        game = live.committed_game()  # (a bot's turn is shown move by move)
        if not self.watched(table.id):  # nobody to tell
            if game.is_over:
                self.meters.drop(table.id)
            return
        view = GameView.of(game, live.tray, undo_on=live.session.undo_on)
        texts = EventMessage.texts(
            seq - len(events) + 1, events, view, live.deadline, by_timer=live.by_timer(seq)
        )
        for text in texts:
            self.broadcast_text(table.id, "event", text)
        if self.meters.due(table.id, game.cards, over=game.is_over):
            self.meters.refresh(table)  # a game over: its watchers are told the meter ends
        if game.is_over and not self.watched(table.id):
            self.meters.drop(table.id)

    async def changed(self, table: Table) -> None:
        """The lobby's word that a table changed (`push_lobby`)."""
        await self.push_lobby(table)

    def watched(self, table_id: str) -> bool:
        """Whether anyone is connected to the table here."""
        return self.admission.watched(table_id)

    def moved(self, table_id: str) -> None:
        """Another node owns the table now: its connections here close (`CLOSE_MOVED`),
        and their clients reconnect to the owner; its chat and meter here are forgotten
        (should it come back, they are read again: lines may be said there meanwhile)."""
        for connection in self.admission.watching(table_id):
            connection.close(CLOSE_MOVED, "the table moved to another server node")
        self.chats.forget(table_id)
        self.meters.forget(table_id)

    def close(self) -> None:
        """The server stops: no presence update nor meter reading is due any more."""
        self.presence.close()
        self.chats.close()
        self.meters.close()


__all__ = ["HELLO_TIMEOUT", "Hub"]
