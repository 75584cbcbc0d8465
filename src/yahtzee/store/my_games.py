"""An account's games as its "my games" list shows them, and the accounts it has played
with: each one statement over the indexes, never a replay of a game.

A table's seat to move is its ``to_move`` column (kept by the group commit with each move
that passes the turn: `commit.turns_passed`), its decision's deadline its ``deadline``
(a turn-by-turn table's), a finished game's result its ``cards``. The account's seats are
found by ``table_seats.account_id`` (its index), the tables by their key.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    case,
    func,
    literal,
    select,
    union_all,
)

from .engine import reading
from .schema import accounts, cards, table_seats, tables
from .store import Store
from .tables import FINISHED, LOBBY, PLAYING

YOUR_TURN = "your_turn"
THEIR_TURN = "their_turn"
WAITING = "lobby"
DONE = "finished"
GROUPS = (YOUR_TURN, THEIR_TURN, WAITING, DONE)
"""The groups of "my games", in the order the list shows them."""


@dataclass(frozen=True, slots=True)
class GameSeat:
    """A seat of one of the account's tables: who sits there (a name, a bot's key, the
    account it belongs to, or nobody yet), and once the game is over its total and place."""

    seat: int
    name: str | None
    bot: str | None
    account: str | None
    """The name of the account the seat belongs to (None: a guest's, a bot's, an open one)."""
    taken: bool
    """Whether someone sits there (a player by token, or a bot); not a seat still open or
    kept for someone (a rematch's, an invitation's)."""
    total: int | None = None
    place: int | None = None


@dataclass(frozen=True, slots=True)
class MyGame:
    """One table of the account's, as "my games" lists it."""

    table_id: str
    group: str
    """`YOUR_TURN`, `THEIR_TURN`, `WAITING` (in the lobby) or `DONE` (finished)."""
    seat: int
    """The account's seat."""
    kept: bool
    """The account's seat is kept for it, not taken yet (an invitation, a rematch): the
    account sits down by `POST /api/tables/{id}/seat`."""
    rules: str
    turn_timer: int | None
    to_move: int | None
    """The seat to move (None: nobody, the table is not in play)."""
    deadline: float | None
    """When the decision now runs out (Unix time; a turn-by-turn table's), if one runs."""
    active_at: float
    """The table's last change (Unix time)."""
    rematch: str | None
    """A finished table's rematch (its table's id), once asked for."""
    seats: tuple[GameSeat, ...]


@dataclass(frozen=True, slots=True)
class MyGames:
    """The account's open tables (its turn first) and its last finished ones; ``more``:
    there are more open ones than listed."""

    games: tuple[MyGame, ...]
    more: bool

    @property
    def your_turn(self) -> int:
        """How many of the tables wait for the account's move."""
        return sum(1 for g in self.games if g.group == YOUR_TURN)


@dataclass(frozen=True, slots=True)
class Friend:
    """An account played with: its name, and when the last table shared with it changed."""

    name: str
    played_at: float
    games: int


def _stamp(value: datetime | None) -> float | None:
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


def _mine(account_id: Any, open_: bool, limit: Any) -> Any:
    """The account's tables, open ones (in the lobby or in play) or finished ones, in the
    order the list shows them, at most ``limit``: a subquery (its rows ordered by
    ``rank``)."""
    me = table_seats
    playing = tables.c.status == PLAYING
    mine_to_move = and_(
        playing, func.coalesce(tables.c.to_move, 0) == me.c.seat, me.c.bot.is_(None)
    )
    group: ColumnElement[int] = case(
        (mine_to_move, 0), (playing, 1), (tables.c.status == LOBBY, 2), else_=3
    )
    changed = func.coalesce(tables.c.active_at, tables.c.created_at)
    deadline = tables.c.deadline
    statuses = (LOBBY, PLAYING) if open_ else (FINISHED,)
    order = (
        [group, case((deadline.is_(None), 1), else_=0), deadline, changed.desc(), tables.c.id]
        if open_
        else [changed.desc(), tables.c.id]
    )
    query = (
        select(
            tables.c.id.label("table_id"), me.c.seat.label("my_seat"),
            and_(me.c.token_hash.is_(None), me.c.bot.is_(None)).label("kept"),
            group.label("grp"), tables.c.rules, tables.c.turn_timer, tables.c.to_move,
            tables.c.status, deadline.label("deadline"), changed.label("changed"),
            tables.c.rematch, tables.c.game_id,
            func.row_number().over(order_by=order).label("rank"),
            literal(0 if open_ else 1, Integer).label("part"),
        )
        .select_from(me.join(tables, tables.c.id == me.c.table_id))
        .where(me.c.account_id == account_id, tables.c.status.in_(statuses))
        .order_by(*order)
        .limit(limit)
    )  # fmt: skip
    return query.subquery()


def statement() -> Select[Any]:
    """`my_games`' one statement: the open tables of the account ``account`` (at most
    ``open_limit``) and its finished ones (``finished_limit``), each table's row once per
    seat, in the list's order (the three are bound parameters)."""
    account_id = bindparam("account", type_=String)
    open_part = _mine(account_id, True, bindparam("open_limit", type_=Integer))
    done_part = _mine(account_id, False, bindparam("finished_limit", type_=Integer))
    both = union_all(select(open_part), select(done_part)).subquery("mine")
    seat = table_seats.alias("seat")
    owner = accounts.alias("owner")
    return (
        select(
            both.c.table_id, both.c.my_seat, both.c.kept, both.c.grp, both.c.rules,
            both.c.turn_timer, both.c.to_move, both.c.status, both.c.deadline, both.c.changed,
            both.c.rematch, seat.c.seat, seat.c.name, seat.c.bot, seat.c.token_hash,
            owner.c.name.label("account"), cards.c.total, cards.c.place,
        )
        .select_from(
            both.join(seat, seat.c.table_id == both.c.table_id)
            .outerjoin(owner, owner.c.id == seat.c.account_id)
            .outerjoin(cards, and_(cards.c.game_id == both.c.game_id, cards.c.seat == seat.c.seat))
        )
        .order_by(both.c.part, both.c.rank, seat.c.seat)
    )  # fmt: skip


_Head = tuple[str, str, int, bool, str, int | None, int | None, float | None, float, str | None]
"""A `MyGame` but for its seats."""
_STATEMENT = statement()
"""(Made once: SQLAlchemy compiles it once, too.)"""


def my_games(
    store: Store, account_id: str, *, open_limit: int = 200, finished_limit: int = 20
) -> MyGames:
    """The account's open tables (its turn first, the deadline nearest first; then the
    others' turns, then those in the lobby, each the last changed first), at most
    ``open_limit`` of them, and its last ``finished_limit`` finished ones (the last
    finished first, with each seat's total and place): one statement."""
    asked = {"account": account_id, "open_limit": open_limit + 1, "finished_limit": finished_limit}
    with reading(store.engine) as c:  # (one open table more: whether there are more)
        rows = c.execute(_STATEMENT, asked).all()
    heads: dict[str, _Head] = {}
    seats: dict[str, list[GameSeat]] = {}
    for (
        table_id,
        my_seat,
        kept,
        grp,
        rules,
        timer,
        to_move,
        status,
        deadline,
        changed,
        rematch,
        seat,
        name,
        bot,
        token_hash,
        account,
        total,
        place,
    ) in rows:  # (unpacked: a row's attributes by name cost a microsecond each)
        if table_id not in heads:
            playing = status == PLAYING
            heads[table_id] = (
                table_id,
                GROUPS[grp],
                my_seat,
                bool(kept),
                rules,
                timer,
                (to_move or 0) if playing else None,
                _stamp(deadline) if playing else None,
                _stamp(changed) or 0.0,
                rematch,
            )
            seats[table_id] = []
        taken = token_hash is not None or bot is not None
        seats[table_id].append(GameSeat(seat, name, bot, account, taken, total, place))
    games = [
        MyGame(t, g, s, k, r, timer, to, d, a, m, tuple(seats[t]))
        for t, g, s, k, r, timer, to, d, a, m in heads.values()
    ]
    open_games = [g for g in games if g.group != DONE]
    more = len(open_games) > open_limit
    listed = open_games[:open_limit] + [g for g in games if g.group == DONE]
    return MyGames(tuple(listed), more)


def friends(store: Store, account_id: str, limit: int = 50) -> list[Friend]:
    """The accounts the account has sat with at a table whose game started, the one
    played with last first (at most ``limit``): one statement."""
    me = table_seats.alias("me")
    other = table_seats.alias("other")
    changed = func.max(func.coalesce(tables.c.active_at, tables.c.created_at))
    query = (
        select(accounts.c.name, changed.label("played_at"), func.count().label("games"))
        .select_from(
            me.join(other, other.c.table_id == me.c.table_id)
            .join(tables, tables.c.id == me.c.table_id)
            .join(accounts, accounts.c.id == other.c.account_id)
        )
        .where(
            me.c.account_id == account_id, other.c.account_id != account_id,
            tables.c.status.in_((PLAYING, FINISHED)),
        )
        .group_by(accounts.c.id, accounts.c.name)
        .order_by(changed.desc(), accounts.c.name)
        .limit(limit)
    )  # fmt: skip
    with reading(store.engine) as c:
        return [Friend(r.name, _stamp(r.played_at) or 0.0, int(r.games)) for r in c.execute(query)]


__all__ = [
    "DONE",
    "GROUPS",
    "THEIR_TURN",
    "WAITING",
    "YOUR_TURN",
    "Friend",
    "GameSeat",
    "MyGame",
    "MyGames",
    "friends",
    "my_games",
]
