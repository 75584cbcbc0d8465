"""The answers to each seat's intents with ids, shared by the seat's connections.

An intent that carries an id is answered once: a repeat (a double click, or a client
that resends what got no answer after reconnecting) gets the same answer and changes
nothing (`Answers`). A seat's answers outlive its connections, so that a reconnected
client finds them; the `SEATS_ANSWERED` seats used most recently are remembered. A
spectator's intents change nothing at the table, so each spectator connection keeps its
own.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from .connection import Answers, Connection

SEATS_ANSWERED: Final = 4096
"""Seats whose recent intent ids are remembered (the least recently used are forgotten)."""


class SeatAnswers:
    """Every seat's answers, by table and seat (see the module's notes)."""

    def __init__(self, kept: int = SEATS_ANSWERED) -> None:
        self.kept = kept
        self._seats: OrderedDict[tuple[str, int], Answers] = OrderedDict()

    def of(self, connection: Connection) -> Answers:
        """The answers to the connection's seat's intents; a spectator's own."""
        if connection.seat is None or connection.table_id is None:
            return connection.answers
        key = (connection.table_id, connection.seat)
        found = self._seats.get(key)
        if found is None:
            found = self._seats[key] = Answers()
            while len(self._seats) > self.kept:
                self._seats.popitem(last=False)
        else:  # kept across reconnections: a client resends what got no answer
            self._seats.move_to_end(key)
        return found


__all__ = ["SEATS_ANSWERED", "SeatAnswers"]
