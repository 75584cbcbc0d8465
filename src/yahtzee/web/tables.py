"""Online tables: seats with secret tokens, the lobby, and the games they play.

The server is the authority: it rolls the dice (a cryptographic source), checks every
intent with the rules engine, and commits each event to the store before it is broadcast.
Tables and their seats are recorded too, so a restarted server serves every unfinished
table again from its event log.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update

from ..core import Game, IllegalMove, InvalidInput, RuleSet, SecureDice, YahtzeeError
from ..store import Seat, Store
from ..store.engine import retrying
from ..store.schema import table_seats, tables
from ..store.store import now
from .protocol import clean_text

MAX_TABLES_PER_CLIENT = 20
NAME_LIMIT = 24


class Forbidden(YahtzeeError):
    default_code = "forbidden"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _token() -> str:
    return secrets.token_urlsafe(24)


@dataclass
class SeatState:
    seat: int
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    @property
    def open(self) -> bool:
        return self.bot is None and self.token_hash is None


@dataclass
class LiveTable:
    id: str
    rules: RuleSet
    hints_allowed: bool
    turn_timer: int | None
    invite_token: str
    spectator_token: str
    owner: str
    status: str
    seats: list[SeatState]
    game: Game | None = None
    game_id: str | None = None
    connections: dict[Any, int | None] = field(default_factory=dict)
    bots: dict[int, Any] = field(default_factory=dict)

    def seat_of(self, token: str | None) -> int | None:
        """The seat this secret token acts for (None for none)."""
        if not token:
            return None
        digest = _hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def lobby(self) -> dict[str, Any]:
        connected = set(self.connections.values())
        return {
            "id": self.id,
            "rules": self.rules.name,
            "hints_allowed": self.hints_allowed,
            "turn_timer": self.turn_timer,
            "status": self.status,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "open": s.open,
                    "connected": s.seat in connected,
                }
                for s in self.seats
            ],
        }


class TableManager:
    """Every table this server serves, kept in memory and recorded in the store."""

    def __init__(self, store: Store, max_tables_per_client: int = MAX_TABLES_PER_CLIENT) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.max_tables_per_client = max_tables_per_client

    # Loading after a restart -------------------------------------------------------

    def load_unfinished(self) -> int:
        with self.store.engine.connect() as c:
            rows = c.execute(select(tables).where(tables.c.status != "finished")).all()
            seat_rows = c.execute(select(table_seats).order_by(table_seats.c.seat)).all()
        by_table: dict[str, list[SeatState]] = {}
        for s in seat_rows:
            by_table.setdefault(s.table_id, []).append(
                SeatState(s.seat, s.name, s.bot, s.token_hash)
            )
        for row in rows:
            table = LiveTable(
                row.id,
                RuleSet.named(row.rules),
                row.hints_allowed,
                row.turn_timer,
                row.invite_token,
                row.spectator_token,
                row.owner,
                row.status,
                by_table.get(row.id, []),
            )
            if row.game_id:
                table.game_id = row.game_id
                table.game = self.store.load(row.game_id, SecureDice())
            self.tables[row.id] = table
        return len(rows)

    # Lobby ---------------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None:
            raise InvalidInput("No such table.", code="no_table")
        return table

    def create(  # noqa: PLR0917 - the table's settings, as the lobby form gives them
        self,
        owner: str,
        host: str,
        seats: list[dict[str, Any]],
        rules: RuleSet,
        hints: bool,
        turn_timer: int | None,
    ) -> tuple[LiveTable, str]:
        """A new table; the host takes seat 0. Returns the table and the host's token."""
        active = sum(1 for t in self.tables.values() if t.owner == owner and t.status != "finished")
        if active >= self.max_tables_per_client:
            raise Forbidden(
                f"At most {self.max_tables_per_client} open tables per client.",
                code="too_many_tables",
            )
        if not 1 <= 1 + len(seats) <= 8:
            raise InvalidInput("A table has 1 to 8 seats.")
        token = _token()
        states = [SeatState(0, self._name(host), None, _hash(token))]
        for index, seat in enumerate(seats, start=1):
            level = seat.get("level")
            if seat.get("kind") == "bot":
                if level not in (1, 2, 3, 4, 5):
                    raise InvalidInput("A bot seat has a level from 1 to 5.")
                states.append(SeatState(index, f"Bot {index}", f"level{level}"))
            else:
                states.append(SeatState(index))
        table = LiveTable(
            str(uuid.uuid4()), rules, hints, turn_timer, _token(), _token(), owner, "lobby", states
        )

        def work() -> None:
            with self.store.engine.begin() as c:
                c.execute(
                    insert(tables).values(
                        id=table.id,
                        rules=rules.name,
                        hints_allowed=hints,
                        turn_timer=turn_timer,
                        invite_token=table.invite_token,
                        spectator_token=table.spectator_token,
                        status="lobby",
                        game_id=None,
                        owner=owner,
                        created_at=now(),
                    )
                )
                c.execute(
                    insert(table_seats),
                    [
                        {
                            "table_id": table.id,
                            "seat": s.seat,
                            "name": s.name,
                            "bot": s.bot,
                            "token_hash": s.token_hash,
                        }
                        for s in states
                    ],
                )

        retrying(work)
        self.tables[table.id] = table
        return table, token

    @staticmethod
    def _name(text: str) -> str:
        name = clean_text(str(text), NAME_LIMIT)
        if not name:
            raise InvalidInput("Give a name of 1 to 24 characters.")
        return name

    def by_invite(self, invite: str) -> LiveTable:
        for table in self.tables.values():
            if secrets.compare_digest(table.invite_token.encode(), invite.encode()):
                return table
        raise InvalidInput(
            "This invite link is not valid (or its table has ended).", code="no_table"
        )

    def join(self, invite: str, name: str) -> tuple[LiveTable, int, str]:
        table = self.by_invite(invite)
        if table.status != "lobby":
            raise IllegalMove(
                "The game has started; only its players can come back.", code="started"
            )
        clean = self._name(name)
        if any(s.name and s.name.casefold() == clean.casefold() for s in table.seats):
            raise InvalidInput("That name is taken at this table.", code="name_taken")
        free = next((s for s in table.seats if s.open), None)
        if free is None:
            raise IllegalMove("Every seat is taken.", code="table_full")
        token = _token()
        free.name, free.token_hash = clean, _hash(token)
        self._save_seat(table, free)
        return table, free.seat, token

    def _save_seat(self, table: LiveTable, seat: SeatState) -> None:
        def work() -> None:
            with self.store.engine.begin() as c:
                c.execute(
                    update(table_seats)
                    .where(table_seats.c.table_id == table.id, table_seats.c.seat == seat.seat)
                    .values(name=seat.name, bot=seat.bot, token_hash=seat.token_hash)
                )

        retrying(work)

    def _require_host(self, table: LiveTable, token: str | None) -> None:
        if table.seat_of(token) != 0:
            raise Forbidden("Only the host can do that.", code="not_host")

    def start(self, table: LiveTable, token: str | None) -> None:
        self._require_host(table, token)
        if table.status != "lobby":
            raise IllegalMove("The game has already started.", code="started")
        if any(s.open for s in table.seats):
            raise IllegalMove("Every seat needs a player or a bot first.", code="seats_open")
        game = Game(
            [s.name or f"Seat {s.seat + 1}" for s in table.seats], table.rules, SecureDice()
        )
        game_id = self.store.start(game, [Seat(s.name or "", s.bot) for s in table.seats])
        table.game, table.game_id, table.status = game, game_id, "playing"
        self._save_status(table)

    def _save_status(self, table: LiveTable) -> None:
        def work() -> None:
            with self.store.engine.begin() as c:
                c.execute(
                    update(tables)
                    .where(tables.c.id == table.id)
                    .values(status=table.status, game_id=table.game_id)
                )

        retrying(work)

    def hand_to_bot(self, table: LiveTable, token: str | None, seat: int, level: int) -> None:
        """The host hands a human seat (abandoned, or never taken) to a bot."""
        self._require_host(table, token)
        if not 1 <= level <= 5:
            raise InvalidInput("A bot has a level from 1 to 5.")
        if not 0 < seat < len(table.seats):
            raise InvalidInput("No such seat (the host's own seat stays human).")
        state = table.seats[seat]
        state.bot, state.token_hash = f"level{level}", None
        state.name = state.name or f"Bot {seat}"
        table.bots.pop(seat, None)
        self._save_seat(table, state)

    def finish(self, table: LiveTable) -> None:
        table.status = "finished"
        self._save_status(table)
