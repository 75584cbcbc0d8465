"""The hub: every WebSocket connection of this node, by table, and what each is sent.

The hub is transport only. Each table's room (`service.room.TableRoom`) owns its game,
seats, chat, presence and meter and makes every decision; the hub is the node's
`RoomListener`: it hears each room's events, in order, and serialises each once for the
table's connections (`heard`). It lets connections in within their caps (`Admission`),
keeps the answers to each seat's intents with ids (`SeatAnswers`), and sends. Sending
never waits on a client: each message is serialized once and put on every connection's
own queue (`Connection`), so an event is told without yielding, inside or outside any
lock.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from ..service import Arrival, TableRoom
from ..service.room_events import (
    Held,
    MeterRead,
    MovedAway,
    Played,
    PresenceChanged,
    RoomEvent,
    Said,
    TableChanged,
    TimedOut,
)
from .admission import RATE_PER_SECOND, Admission
from .answers import SeatAnswers
from .connection import CLOSE_MOVED, CLOSE_SEAT_GONE, Answers, Connection, RateLimit
from .messages import (
    ChatMessage,
    EventMessage,
    HoldMessage,
    LobbyMessage,
    MeterMessage,
    Outbound,
    PlayedForMessage,
    PongMessage,
    PresenceMessage,
    StateMessage,
    TimedOutMessage,
)
from .models import GameView, LobbyView

HELLO_TIMEOUT: Final = 10.0
"""Seconds a new connection has to say hello (its seat's token or the spectator key)."""
PONG: Final = PongMessage().model_dump_json()


class Hub:
    """Every connection, by table, and what they are sent; the listener of this node's
    rooms (see the module's notes)."""

    def __init__(self, *, rate: float = RATE_PER_SECOND) -> None:
        self.hello_timeout = HELLO_TIMEOUT
        self.admission = Admission(rate=rate)
        self.connections = self.admission.connections
        """The connections that said hello, by table (in the order they came)."""
        self.addresses = self.admission.addresses
        """Open connections by client address (hello or not)."""
        self.sent: Counter[str] = Counter()
        """Messages queued, by type (what a test or an operator counts)."""
        self.seat_answers = SeatAnswers()

    # Connections ---------------------------------------------------------------------

    def admit(self, connection: Connection) -> bool:
        """Count a new connection against its address's cap (False: over it)."""
        return self.admission.admit(connection)

    async def join(self, room: TableRoom, connection: Connection) -> str | None:
        """A connection that said hello (``connection.seat`` set) joins its table's room:
        it gets the state, everyone else a presence update. Else why not
        (`Admission.enter`)."""
        await room.ready()  # (its chat read from the records on first use)
        refused = self.admission.enter(room.id, connection)
        if refused is not None:
            return refused
        connection.room = room
        arrival = room.arrive(connection)
        self.send(connection, StateMessage.of(arrival.view))
        connection.saw_game = arrival.view.game is not None
        self._played_for(connection, arrival)
        return None

    def heard_from(self, connection: Connection) -> None:
        """A message came from the connection: it is here; back after it was away, a
        player hears what was played for them meanwhile."""
        room = connection.room
        if room is not None:
            played = room.heard(connection)
            if played and connection.seat is not None:
                self.send(connection, PlayedForMessage.of(connection.seat, played))

    def _played_for(self, connection: Connection, arrival: Arrival) -> None:
        if arrival.played_for and connection.seat is not None:
            self.send(connection, PlayedForMessage.of(connection.seat, arrival.played_for))

    def pong(self, connection: Connection) -> None:
        """The answer to a ping (one text for all)."""
        self.sent["pong"] += 1
        connection.offer(PONG)

    def leave(self, connection: Connection) -> None:
        """A connection ended (whether or not it was admitted, or joined a table)."""
        self.admission.leave(connection)
        if connection.room is not None:
            connection.room.depart(connection)

    def still_seated(self, room: TableRoom, connection: Connection) -> bool:
        """Whether a player's connection still acts for its seat (the seat was not handed
        on since its hello). Spectators always are what they were."""
        seat = connection.seat
        return seat is None or room.table.seats[seat].token_hash == connection.token_hash

    def rate_limit(self, connection: Connection) -> RateLimit:
        """The bucket a message of the connection counts against (`Admission`)."""
        return self.admission.rate_limit(connection)

    def answers(self, connection: Connection) -> Answers:
        """The answers to a seat's intents with ids (shared by its connections); a
        spectator's own."""
        return self.seat_answers.of(connection)

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

    # The rooms' listener (`RoomListener`) --------------------------------------------

    def heard(self, table_id: str, event: RoomEvent) -> None:
        """A room's event, serialised for the table's connections (called in order,
        never yields)."""
        match event:
            case Played():
                if self.admission.watched(table_id):  # else nobody to tell
                    self._played(table_id, event)
            case Held():
                self.broadcast(table_id, HoldMessage.of(event))
            case Said():
                self.broadcast(table_id, ChatMessage.of(event))
            case MeterRead():
                self.broadcast(table_id, MeterMessage.of(event.seq, event.reading))
            case PresenceChanged():
                self.broadcast(table_id, PresenceMessage.of(event))
            case TableChanged():
                self._table_changed(table_id, event)
            case TimedOut():
                self.broadcast(table_id, TimedOutMessage.of(event))
            case MovedAway():
                for connection in self.admission.watching(table_id):
                    connection.close(CLOSE_MOVED, "the table moved to another server node")

    def _played(self, table_id: str, played: Played) -> None:
        """A committed move: each of its events, with the state after the move."""
        view = GameView.of(played.game, played.tray, undo_on=played.undo_on)
        first = played.seq - len(played.events) + 1
        texts = EventMessage.texts(
            first, played.events, view, played.deadline, by_timer=played.by_timer
        )
        for text in texts:
            self.broadcast_text(table_id, "event", text)

    def _table_changed(self, table_id: str, changed: TableChanged) -> None:
        """The table changed: connections of a seat handed on are closed (4409), each other
        one gets the lobby, or the whole state once its game has started. A table that has
        ended (cancelled, expired) is told so, and its connections closed."""
        table = changed.table
        lobby = LobbyMessage(table=LobbyView.of(table, set(changed.connected)))
        for connection in self.admission.watching(table_id):
            room = connection.room
            if room is not None and not self.still_seated(room, connection):
                connection.close(CLOSE_SEAT_GONE, "this seat was handed to a bot")
            elif connection.saw_game or table.session is None or room is None:
                self.send(connection, lobby)
            else:
                self.send(connection, StateMessage.of(room.view(connection.seat)))
                connection.saw_game = True
            if changed.gone:
                connection.close(1000, "the table has ended")


__all__ = ["HELLO_TIMEOUT", "Hub"]
