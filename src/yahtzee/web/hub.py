"""The live-table hub: which sockets watch which table, and what they are sent.

The game service (:class:`~yahtzee.service.Lobby`) owns the tables, their games, bots and
records; the hub only turns its committed moves into messages for the connected clients.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from ..service import Lobby, Move, Table, warm_up
from ..store import Store
from .models import EventMessage, GameView, LobbyView, Outbound, StateMessage, You

RATE_PER_SECOND = 10.0
RATE_BURST = 20.0


class Client(Protocol):
    """A connected client (a WebSocket): it takes one JSON text message at a time."""

    async def send_text(self, data: str) -> None: ...


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
        self.connections: dict[str, dict[Client, int | None]] = {}
        self.solver_ready = asyncio.Event()

    async def warm_up(self) -> None:
        """Get the solver ready while the server already answers: the official table
        (shipped with the package), a bot's first move and the compiled kernels (compiled
        aside, in a child process). Games play meanwhile, on numpy turns."""
        try:
            await asyncio.to_thread(warm_up, compile_kernels=True)
        finally:
            self.solver_ready.set()

    # Connections ---------------------------------------------------------------------

    def connect(self, table: Table, client: Client, seat: int | None) -> None:
        self.connections.setdefault(table.id, {})[client] = seat

    def disconnect(self, table: Table, client: Client) -> None:
        self.connections.get(table.id, {}).pop(client, None)

    def connected_seats(self, table: Table) -> set[int]:
        return {s for s in self.connections.get(table.id, {}).values() if s is not None}

    # Views ---------------------------------------------------------------------------

    def lobby_view(self, table: Table) -> LobbyView:
        return LobbyView.of(table, self.connected_seats(table))

    def snapshot(self, table: Table, seat: int | None) -> StateMessage:
        session = table.session
        return StateMessage(
            seq=len(session.game.event_log) if session else 0,
            table=self.lobby_view(table),
            you=You(seat=seat, role="spectator" if seat is None else "player"),
            game=GameView.of(session.game) if session else None,
        )

    # Sending -------------------------------------------------------------------------

    @staticmethod
    async def send(client: Client, message: Outbound) -> None:
        await client.send_text(message.model_dump_json())

    async def broadcast(self, table: Table, message: Outbound) -> None:
        text = message.model_dump_json()
        for client in list(self.connections.get(table.id, {})):
            with contextlib.suppress(Exception):
                await client.send_text(text)

    async def push_lobby(self, table: Table) -> None:
        """Everyone at the table gets the full state (the lobby changed)."""
        for client, seat in list(self.connections.get(table.id, {}).items()):
            with contextlib.suppress(Exception):
                await self.send(client, self.snapshot(table, seat))

    async def publish(self, table: Table, move: Move) -> None:
        """A committed move: each of its events, with the state after the move."""
        session = table.session
        assert session is not None
        view = GameView.of(session.game)
        first = move.seq - len(move.events) + 1
        for offset, event in enumerate(move.events):
            await self.broadcast(table, EventMessage.of(first + offset, event, view))
