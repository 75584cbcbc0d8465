"""Online tables in the records: their settings, seats (secret tokens kept as hashes),
status and last change, so that a restarted server serves every table in play again, and
a finished one read-only.

A finished table may have a rematch: a new table with the same settings and seats, made
once (the first player who asks makes it; `create_rematch` is a compare-and-set, so that
two asking at the same moment, through any server nodes, get the same one). A table and
its rematches, one after the other, are one sitting: each table records its ``sitting``
(the id of the first table), and a game's sitting is its table's (`sitting_of_game`).

A table's status is ``lobby`` (waiting for players), ``playing``, ``finished``, or, for a
lobby that never started, ``cancelled`` (by its host) or ``expired`` (idle too long); a
daily game's table left unfinished is ``expired`` once its day is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Row,
    bindparam,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)

from ..core import BotSpec, Game
from ..core.language import _
from . import pg_tables
from .accounts import link_game_seats, set_table_seat_account
from .chat import forget_chat
from .commit import StoreError
from .engine import on_postgres, reading, retrying, single_write
from .schema import daily_results, games, table_seats, tables
from .store import Store, dice_seed_of, now, record_game
from .values import ENTERED, MANY_AT_ONCE, ROLLED, Seat, TableRecord, TableSeatRecord

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
CANCELLED = "cancelled"
EXPIRED = "expired"
ENDED = (FINISHED, CANCELLED, EXPIRED)
"""The statuses after which nothing at the table changes any more."""


def _when(stamp: float | None) -> datetime:
    return now() if stamp is None else datetime.fromtimestamp(stamp, UTC)


def _stamp(value: datetime) -> float:
    """Unix time of a stored time (SQLite gives it back without its zone: UTC)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True, slots=True)
class Quota:
    """At most ``limit`` open tables per owner (as `count_open` counts them, with
    ``active_since``)."""

    active_since: float
    limit: int


def create_table(store: Store, table: TableRecord, quota: Quota | None = None) -> bool:
    """Record a new table; with ``quota``, only if its owner has fewer open tables than
    that (counted in the same transaction). Returns whether it was recorded."""

    def work() -> bool:
        if on_postgres(store.engine) and _plain(table):  # one call (0013): as `create_in`
            limit = None if quota is None else (quota.limit, _when(quota.active_since))
            created = _when(table.active_at or None)
            made = pg_tables.create(store.engine, table, created, limit, (LOBBY, PLAYING))
            if made and any(s.account for s in table.seats):  # (the function has no column)
                with store.engine.begin() as c:
                    _seat_accounts(c, table)
            return made
        with store.engine.begin() as c:
            return create_in(c, table, quota)

    return retrying(work)


def _plain(table: TableRecord) -> bool:
    """Whether the table's timeout settings are the columns' defaults (migration 0013's
    function writes a table with those; another is written as SQLite writes it)."""
    defaults = TableRecord("", "", False, None, "", "", "", "", None, ())
    return (table.timeout_rule, table.timeout_level, table.timeout_missed) == (
        defaults.timeout_rule,
        defaults.timeout_level,
        defaults.timeout_missed,
    )


def create_in(c: Connection, table: TableRecord, quota: Quota | None = None) -> bool:
    """`create_table`'s decision and writes in the caller's transaction: how SQLite makes
    a new table. PostgreSQL makes it in one call of a function of its own (migration
    0013), which tests/store/test_sql_decisions.py holds to this one, case by case."""
    if quota is not None and _open(c, table.owner, quota.active_since) >= quota.limit:
        return False
    _insert(c, table)
    return True


def _insert(c: Connection, table: TableRecord) -> None:
    created = _when(table.active_at or None)
    c.execute(
        insert(tables).values(
            id=table.id, rules=table.rules, hints_allowed=table.hints_allowed,
            turn_timer=table.turn_timer, invite_token=table.invite_token,
            spectator_token=table.spectator_token, status=table.status,
            game_id=table.game_id, owner=table.owner, created_at=created,
            active_at=created, sitting=table.sitting_id, rematch=table.rematch,
            dice=ENTERED if table.entered else ROLLED, timeout_rule=table.timeout_rule,
            timeout_level=table.timeout_level, timeout_missed=table.timeout_missed,
        )
    )  # fmt: skip
    c.execute(insert(table_seats), [_seat_row(table.id, s) for s in table.seats])


def _seat_accounts(c: Connection, table: TableRecord) -> None:
    for seat in table.seats:
        if seat.account:
            set_table_seat_account(c, table.id, seat.seat, seat.account)


class _OverQuota(Exception):
    """A rematch over its owner's quota: nothing is written (the transaction rolls back)."""


def create_rematch(
    store: Store, table_id: str, rematch: TableRecord, quota: Quota | None = None
) -> str | None:
    """Record ``rematch`` as the rematch of the table ``table_id``, unless that table has
    one already: a compare-and-set on the table's ``rematch``, so that of two players
    asking at the same moment (through any server nodes) one table is made. With
    ``quota``, only if the rematch's owner has fewer open tables than that (counted in
    the same transaction). Returns the id of the table's rematch: ``rematch.id`` when
    it was recorded now, the one recorded before otherwise; None when the quota refused
    (nothing written)."""

    def work() -> str | None:
        try:
            with store.engine.begin() as c:
                claimed = c.execute(
                    update(tables)
                    .where(tables.c.id == table_id, tables.c.rematch.is_(None))
                    .values(rematch=rematch.id)
                ).rowcount
                if not claimed:
                    found = c.execute(
                        select(tables.c.rematch).where(tables.c.id == table_id)
                    ).scalar()
                    if found is None:
                        raise StoreError(
                            _("No table {table_id} in the records.").format(table_id=table_id)
                        )
                    return str(found)
                if quota is not None and (
                    _open(c, rematch.owner, quota.active_since) >= quota.limit
                ):
                    raise _OverQuota
                _insert(c, rematch)
                return rematch.id
        except _OverQuota:
            return None

    return retrying(work)


def sitting_of_game(store: Store, game_id: str) -> str | None:
    """The sitting this game belongs to (None for no such game)."""
    with reading(store.engine) as c:
        row = c.execute(select(games.c.sitting).where(games.c.id == game_id)).first()
    return None if row is None else str(row.sitting or game_id)


def sitting_games(store: Store, sitting: str) -> list[str]:
    """The games of a sitting, in the order they were started."""
    with reading(store.engine) as c:
        query = (
            select(games.c.id)
            .where(games.c.sitting == sitting)
            .order_by(games.c.created_at, games.c.id)
        )
        return [str(r) for r in c.execute(query).scalars()]


def start_table(
    store: Store,
    table_id: str,
    expected: Sequence[TableSeatRecord],
    *,
    game_id: str,
    game: Game,
    seats: Sequence[Seat],
    seed: str | int | None = None,
    active_at: float | None = None,
) -> TableRecord | None:
    """Start a table's game in one transaction: the game recorded (``game_id``) and the
    table in play, only if the table is still in the lobby with the seats ``expected``
    (another server node may have changed it). Returns None once started, else the table
    as the records hold it (nothing written)."""

    def work() -> TableRecord | None:
        if on_postgres(store.engine) and not game.is_over:  # one call (0013): as `start_in`
            done = pg_tables.start(
                store.engine, table_id, expected, game_id=game_id, game=game, seats=seats,
                seed=seed, dice_seed=dice_seed_of(game), stamp=now(),
                active_at=_when(active_at), statuses=(LOBBY, PLAYING),
            )  # fmt: skip
            if done == pg_tables.STARTED:
                if any(s.account for s in expected):  # (the function has no column)
                    with store.engine.begin() as c:
                        link_game_seats(c, table_id, game_id)
                return None
            now_as = load_table(store, table_id) if done == pg_tables.CHANGED else None
            if now_as is None:
                raise StoreError(_("No table {table_id} in the records.").format(table_id=table_id))
            return now_as
        with store.engine.begin() as c:
            return start_in(
                c, table_id, expected, game_id=game_id, game=game, seats=seats, seed=seed,
                active_at=active_at,
            )  # fmt: skip

    return retrying(work)


def start_in(
    c: Connection,
    table_id: str,
    expected: Sequence[TableSeatRecord],
    *,
    game_id: str,
    game: Game,
    seats: Sequence[Seat],
    seed: str | int | None = None,
    active_at: float | None = None,
) -> TableRecord | None:
    """`start_table`'s decision and writes in the caller's transaction: how SQLite starts
    a table. PostgreSQL starts one in one call of a function of its own (migration 0013),
    which tests/store/test_sql_decisions.py holds to this one, case by case."""
    rows = c.execute(select(tables).where(tables.c.id == table_id).with_for_update()).all()
    found = _with_seats(c, rows)
    if not found:
        raise StoreError(_("No table {table_id} in the records.").format(table_id=table_id))
    if found[0].status != LOBBY or _who(found[0].seats) != _who(expected):
        return found[0]
    record_game(c, game_id, game, seats, seed=seed, sitting=found[0].sitting_id)
    if any(s.account for s in expected):
        link_game_seats(c, table_id, game_id)
    c.execute(
        update(tables)
        .where(tables.c.id == table_id)
        .values(status=PLAYING, game_id=game_id, active_at=_when(active_at))
    )
    return None


def _who(seats: Sequence[TableSeatRecord]) -> list[tuple[object, ...]]:
    """Who sits where, as a start compares it (the seats' accounts aside: a guest's seat
    handed over to an account is the same seat)."""
    return [(s.seat, s.name, s.bot, s.token_hash) for s in seats]


def save_table_seat(
    store: Store,
    table_id: str,
    seat: TableSeatRecord,
    active_at: float | None = None,
    *,
    only_if_open: bool = False,
) -> bool:
    """Record a seat's new state; the table's last change is ``active_at`` (now if None).
    ``only_if_open``: only if nobody has taken the seat meanwhile (say through another
    server node). Returns whether it was recorded."""

    def work() -> bool:
        with store.engine.begin() as c:
            row = _seat_row(table_id, seat)
            query = update(table_seats).where(
                table_seats.c.table_id == table_id, table_seats.c.seat == seat.seat
            )
            if only_if_open:
                query = query.where(table_seats.c.token_hash.is_(None), table_seats.c.bot.is_(None))
            values = {
                "name": row["name"],
                "bot": row["bot"],
                "token_hash": row["token_hash"],
                "missed": row["missed"],
                "out": row["out"],
            }
            if only_if_open:  # a player takes the seat: theirs (a seat's account stays)
                values["account_id"] = row["account_id"]
            done = c.execute(query.values(**values)).rowcount
            if not done:
                return False
            c.execute(
                update(tables).where(tables.c.id == table_id).values(active_at=_when(active_at))
            )
            return True

    return retrying(work)


def set_table_status(
    store: Store,
    table_id: str,
    status: str,
    game_id: str | None,
    active_at: float | None = None,
    *,
    expect: str | None = None,
) -> bool:
    """Record a table's status; with ``expect``, only if the table still has that status
    (a compare-and-set between server nodes). Returns whether it was recorded. A table
    that ends unplayed (cancelled, expired) loses its chat in the same transaction."""

    query = update(tables).where(tables.c.id == table_id)
    if expect is not None:
        query = query.where(tables.c.status == expect)
    values = query.values(
        status=status, game_id=game_id, active_at=_when(active_at),
        **({"deadline": None} if status in ENDED else {}),
        **({"to_move": None} if status != PLAYING else {}),  # nobody moves at it
    )  # fmt: skip

    def work() -> bool:
        if status not in (CANCELLED, EXPIRED):  # one statement (a game over: each game's)
            with single_write(store.engine) as c:
                return bool(c.execute(values).rowcount)
        with store.engine.begin() as c:
            done = bool(c.execute(values).rowcount)
            if done:
                forget_chat(c, table_id)
            return done

    return retrying(work)


def set_deadline(store: Store, table_id: str, deadline: float | None) -> None:
    """Record the deadline of a turn-by-turn table's decision now (None: none runs)."""
    query = (
        update(tables)
        .where(tables.c.id == table_id)
        .values(deadline=None if deadline is None else _when(deadline))
    )

    def work() -> None:
        with single_write(store.engine) as c:
            c.execute(query)

    retrying(work)


def due_tables(store: Store, at: float, limit: int = MANY_AT_ONCE) -> list[str]:
    """Tables in play whose decision's deadline is ``at`` (Unix time) or before, the
    longest due first (at most ``limit``)."""
    query = (
        select(tables.c.id)
        .where(tables.c.deadline <= _when(at), tables.c.status == PLAYING)
        .order_by(tables.c.deadline)
        .limit(limit)
    )
    with reading(store.engine) as c:
        return [str(r) for r in c.execute(query).scalars()]


def expire_days_over(store: Store, today: date, active_at: float) -> int:
    """Every daily game's table still in play whose day is before ``today`` expires (it
    no longer counts against its owner's quota); returns how many did."""
    past = exists().where(
        daily_results.c.game_id == tables.c.game_id, daily_results.c.day < today.isoformat()
    )
    query = (
        update(tables)
        .where(tables.c.status == PLAYING, past)
        .values(status=EXPIRED, active_at=_when(active_at))
    )

    def work() -> int:
        with single_write(store.engine) as c:
            return int(c.execute(query).rowcount)

    return retrying(work)


def table_by_invite(store: Store, invite: str) -> str | None:
    """The id of the table this invite token opens (None for none)."""
    with reading(store.engine) as c:
        found = c.execute(select(tables.c.id).where(tables.c.invite_token == invite)).scalar()
    return None if found is None else str(found)


def count_open(store: Store, owner: str, active_since: float) -> int:
    """An owner's tables in play, or in the lobby and changed since ``active_since``."""
    with reading(store.engine) as c:
        return _open(c, owner, active_since)


def _open(c: Connection, owner: str, active_since: float) -> int:
    lobby = (tables.c.status == LOBBY) & (
        func.coalesce(tables.c.active_at, tables.c.created_at) >= _when(active_since)
    )
    query = select(func.count()).select_from(tables)
    query = query.where(tables.c.owner == owner, or_(tables.c.status == PLAYING, lobby))
    return int(c.execute(query).scalar_one())


def playing_ids(store: Store) -> list[str]:
    """Every table in play."""
    with reading(store.engine) as c:
        return [
            str(r)
            for r in c.execute(select(tables.c.id).where(tables.c.status == PLAYING)).scalars()
        ]


def open_tables(
    store: Store, finished_since: float | None = None, timer_at_most: int | None = None
) -> list[TableRecord]:
    """Every table in the lobby or in play, with its seats in order; with
    ``finished_since`` (Unix time), also the tables finished since then; with
    ``timer_at_most``, none in play whose turn timer is longer (`away_tables`)."""
    served: ColumnElement[bool] = tables.c.status.in_((LOBBY, PLAYING))
    if timer_at_most is not None:
        served = served & ~_longer_in_play(timer_at_most)
    if finished_since is not None:
        recent = or_(tables.c.active_at.is_(None), tables.c.active_at >= _when(finished_since))
        served = or_(served, (tables.c.status == FINISHED) & recent)
    with reading(store.engine) as c:
        rows = c.execute(select(tables).where(served)).all()
        return _with_seats(c, rows)


def _longer_in_play(timer: int) -> ColumnElement[bool]:
    return (tables.c.status == PLAYING) & (func.coalesce(tables.c.turn_timer, 0) > timer)


def away_tables(store: Store, timer_above: int) -> bool:
    """Whether any table in play has a turn timer longer than ``timer_above`` (those a
    server loads only when they are asked for: turn-by-turn tables)."""
    query = select(exists().where(_longer_in_play(timer_above)))
    with reading(store.engine) as c:
        return bool(c.execute(query).scalar())


def load_table(store: Store, table_id: str) -> TableRecord | None:
    """One table by its id, whatever its status (None if there is none)."""
    return load_tables(store, [table_id]).get(table_id)


def load_tables(store: Store, table_ids: Sequence[str]) -> dict[str, TableRecord]:
    """Tables by their ids, whatever their status (those found; at most `MANY_AT_ONCE`)."""
    if len(table_ids) > MANY_AT_ONCE:
        raise ValueError(f"at most {MANY_AT_ONCE} tables at once")
    with reading(store.engine) as c:
        rows = c.execute(_TABLES_BY_ID, {"ids": list(table_ids)}).all()
        return {record.id: record for record in _with_seats(c, rows)}


_TABLES_BY_ID = select(tables).where(tables.c.id.in_(bindparam("ids", expanding=True)))
_SEATS_OF = (
    select(table_seats)
    .where(table_seats.c.table_id.in_(bindparam("ids", expanding=True)))
    .order_by(table_seats.c.table_id, table_seats.c.seat)
)
"""(Statements made once: each load of a table runs both.)"""


def _with_seats(c: Connection, rows: Sequence[Row[Any]]) -> list[TableRecord]:
    if not rows:
        return []
    ids = [r.id for r in rows]
    by_table: dict[str, list[TableSeatRecord]] = {}
    chunk = MANY_AT_ONCE
    for start in range(0, len(ids), chunk):
        seat_rows = c.execute(_SEATS_OF, {"ids": ids[start : start + chunk]}).all()
        for s in seat_rows:
            bot = BotSpec.parse(s.bot) if s.bot else None
            by_table.setdefault(s.table_id, []).append(
                TableSeatRecord(s.seat, s.name, bot, s.token_hash, s.missed, s.out, s.account_id)
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
            _stamp(r.active_at or r.created_at),
            r.sitting or r.id,
            r.rematch,
            r.dice == ENTERED,
            r.timeout_rule,
            r.timeout_level,
            r.timeout_missed,
            None if r.deadline is None else _stamp(r.deadline),
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
        "missed": seat.missed,
        "out": seat.out,
        "account_id": seat.account,
    }


__all__ = [
    "CANCELLED",
    "ENDED",
    "EXPIRED",
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "Quota",
    "TableRecord",
    "TableSeatRecord",
    "away_tables",
    "count_open",
    "create_in",
    "create_rematch",
    "create_table",
    "due_tables",
    "expire_days_over",
    "load_table",
    "open_tables",
    "playing_ids",
    "save_table_seat",
    "set_deadline",
    "set_table_status",
    "sitting_games",
    "sitting_of_game",
    "start_in",
    "start_table",
    "table_by_invite",
]
