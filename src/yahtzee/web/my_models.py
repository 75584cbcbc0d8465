"""Typed answers of "my games" (`/api/me/...`): an account's tables, friends, statistics
and history, and the body of an invitation by account name (see docs/protocol.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..core import MAX_NAME_LENGTH, InvalidInput
from ..core.language import _
from ..store.account_records import Cursor, HistoryPage
from ..store.my_games import Friend, GameSeat, MyGame, MyGames
from ..store.values import GameSummary


class Invite(BaseModel):
    """``POST /api/tables/{id}/invite``: keep an open seat for the account of this name."""

    model_config = ConfigDict(strict=True)

    account: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)


class MySeatView(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    account: str | None
    """The name of the account the seat belongs to (null: a guest's, a bot's, an open one)."""
    taken: bool
    total: int | None = None
    """Once the game is over: the seat's total and place (1 = first)."""
    place: int | None = None

    @staticmethod
    def data(seat: GameSeat) -> dict[str, Any]:
        return {
            "seat": seat.seat, "name": seat.name, "bot": seat.bot, "account": seat.account,
            "taken": seat.taken, "total": seat.total, "place": seat.place,
        }  # fmt: skip


class MyGameView(BaseModel):
    table: str
    group: str
    """``your_turn``, ``their_turn``, ``lobby`` or ``finished`` (the list's order)."""
    seat: int
    """The account's seat."""
    kept: bool
    """The seat is kept for the account, not taken yet: ``POST /api/tables/{id}/seat``."""
    rules: str
    turn_timer: int | None
    to_move: int | None
    deadline: float | None
    """When the decision now runs out (Unix time; a turn-by-turn table's), if one runs."""
    active_at: float
    rematch: str | None
    seats: list[MySeatView]

    @staticmethod
    def data(game: MyGame) -> dict[str, Any]:
        return {
            "table": game.table_id, "group": game.group, "seat": game.seat, "kept": game.kept,
            "rules": game.rules, "turn_timer": game.turn_timer, "to_move": game.to_move,
            "deadline": game.deadline, "active_at": game.active_at, "rematch": game.rematch,
            "seats": [MySeatView.data(s) for s in game.seats],
        }  # fmt: skip


class MyGamesView(BaseModel):
    you: str
    """The account's name."""
    your_turn: int
    """How many tables wait for the account's move (the page's title and icon count)."""
    games: list[MyGameView]
    more: bool
    """More open tables than listed."""

    @classmethod
    def of(cls, you: str, found: MyGames) -> MyGamesView:
        # one validation of the whole answer (in pydantic's core: a model built one by
        # one costs three times as much at 200 games)
        return cls.model_validate(
            {
                "you": you, "your_turn": found.your_turn, "more": found.more,
                "games": [MyGameView.data(g) for g in found.games],
            }
        )  # fmt: skip


class FriendView(BaseModel):
    name: str
    played_at: float
    games: int

    @classmethod
    def of(cls, friend: Friend) -> FriendView:
        return cls(name=friend.name, played_at=friend.played_at, games=friend.games)


class FriendsView(BaseModel):
    friends: list[FriendView]


class MyStatsView(BaseModel):
    stats: dict[str, Any] | None
    """The account's statistics as ``yahtzee stats`` gives a player's (null: no game of
    the account's is over yet)."""


class MyExport(BaseModel):
    format: str
    version: int
    games: list[dict[str, Any]]
    """Each game as ``yahtzee export`` writes it (see docs/guides/records.md)."""


class HistoryGameView(BaseModel):
    id: str
    rules: str
    status: str
    created_at: str
    updated_at: str
    finished_at: str | None
    players: list[str]
    totals: list[int | None]
    winners: list[str]
    sitting: str | None
    dice: str
    offline: bool
    """Played offline on a device and uploaded (unranked: its dice could not be checked)."""

    @classmethod
    def of(cls, game: GameSummary) -> HistoryGameView:
        return cls(
            id=game.id, rules=game.rules, status=game.status,
            created_at=game.created_at.isoformat(), updated_at=game.updated_at.isoformat(),
            finished_at=game.finished_at.isoformat() if game.finished_at else None,
            players=list(game.players), totals=list(game.totals), winners=list(game.winners),
            sitting=game.sitting, dice=game.dice, offline=game.offline,
        )  # fmt: skip


class HistoryView(BaseModel):
    games: list[HistoryGameView]
    next: str | None
    """The ``before`` of the next page (null: this is the last)."""

    @classmethod
    def of(cls, page: HistoryPage) -> HistoryView:
        return cls(
            games=[HistoryGameView.of(g) for g in page.games],
            next=None if page.next is None else cursor_text(page.next),
        )


_CURSOR = re.compile(r"(\d{1,20})\.([0-9A-Za-z-]{1,36})")


def cursor_text(cursor: Cursor) -> str:
    """A page's end as ``before`` gives it: the microseconds of its last change, a dot,
    its game's id."""
    return f"{round(cursor.updated_at.timestamp() * 1_000_000)}.{cursor.game_id}"


def parse_cursor(text: str | None) -> Cursor | None:
    """``before`` as `cursor_text` wrote it (None: from the newest); ``bad_cursor``."""
    if text is None:
        return None
    found = _CURSOR.fullmatch(text)
    if found is None:
        raise InvalidInput(
            _("That is not where a page of history ends: pass the 'next' of the page before."),
            code="bad_cursor",
        )
    micros = int(found.group(1))
    try:
        at = datetime.fromtimestamp(micros // 1_000_000, UTC).replace(
            microsecond=micros % 1_000_000
        )
    except (OverflowError, OSError, ValueError):
        raise InvalidInput(_("That page of history is out of range."), code="bad_cursor") from None
    return Cursor(at, found.group(2))
