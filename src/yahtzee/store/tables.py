"""Online tables in the records: their settings, seats (secret tokens kept as hashes) and
status, so that a restarted server serves every unfinished table again."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import insert, select, update

from ..core import BotSpec
from .engine import retrying
from .schema import table_seats, tables
from .store import Store, now

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class TableSeatRecord:
    seat: int
    name: str | None = None
    bot: BotSpec | None = None
    token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: str
    rules: str
    hints_allowed: bool
    turn_timer: int | None
    invite_token: str
    spectator_token: str
    owner: str
    status: str
    game_id: str | None
    seats: tuple[TableSeatRecord, ...]


def create_table(store: Store, table: TableRecord) -> None:
    def work() -> None:
        with store.engine.begin() as c:
            c.execute(
                insert(tables).values(
                    id=table.id, rules=table.rules, hints_allowed=table.hints_allowed,
                    turn_timer=table.turn_timer, invite_token=table.invite_token,
                    spectator_token=table.spectator_token, status=table.status,
                    game_id=table.game_id, owner=table.owner, created_at=now(),
                )
            )  # fmt: skip
            c.execute(insert(table_seats), [_seat_row(table.id, s) for s in table.seats])

    retrying(work)


def save_table_seat(store: Store, table_id: str, seat: TableSeatRecord) -> None:
    def work() -> None:
        with store.engine.begin() as c:
            row = _seat_row(table_id, seat)
            c.execute(
                update(table_seats)
                .where(table_seats.c.table_id == table_id, table_seats.c.seat == seat.seat)
                .values(name=row["name"], bot=row["bot"], token_hash=row["token_hash"])
            )

    retrying(work)


def set_table_status(store: Store, table_id: str, status: str, game_id: str | None) -> None:
    def work() -> None:
        with store.engine.begin() as c:
            c.execute(
                update(tables).where(tables.c.id == table_id).values(status=status, game_id=game_id)
            )

    retrying(work)


def open_tables(store: Store) -> list[TableRecord]:
    """Every table not finished, with its seats in order."""
    with store.engine.connect() as c:
        rows = c.execute(select(tables).where(tables.c.status != FINISHED)).all()
        seat_rows = c.execute(select(table_seats).order_by(table_seats.c.seat)).all()
    by_table: dict[str, list[TableSeatRecord]] = {}
    for s in seat_rows:
        bot = BotSpec.parse(s.bot) if s.bot else None
        by_table.setdefault(s.table_id, []).append(
            TableSeatRecord(s.seat, s.name, bot, s.token_hash)
        )
    return [
        TableRecord(
            r.id,
            r.rules,
            r.hints_allowed,
            r.turn_timer,
            r.invite_token,
            r.spectator_token,
            r.owner,
            r.status,
            r.game_id,
            tuple(by_table.get(r.id, ())),
        )
        for r in rows
    ]


def _seat_row(table_id: str, seat: TableSeatRecord) -> dict[str, object]:
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "name": seat.name,
        "bot": seat.bot.key if seat.bot else None,
        "token_hash": seat.token_hash,
    }


__all__ = [
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "TableRecord",
    "TableSeatRecord",
    "create_table",
    "open_tables",
    "save_table_seat",
    "set_table_status",
]
