"""The records of an account's games: the games whose seats belong to it
(``seats.account_id``, set as a table's game starts), for its statistics, its history
(newest first, a page at a time) and its export."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_, select

from .engine import reading
from .queries import PlayerStats, finished_cards_query, player_stats, sitting_results, who
from .schema import games, seats
from .store import Store, utc
from .transfer import export_games
from .values import GameSummary


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where a page of history ends: its last game's last change and id (the next page
    holds the games before it)."""

    updated_at: datetime
    game_id: str


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """A page of an account's games, newest first; ``next``: where the next page starts
    (None: this is the last)."""

    games: tuple[GameSummary, ...]
    next: Cursor | None


def _games_of(account_id: str) -> Any:
    return select(seats.c.game_id).where(seats.c.account_id == account_id)


def account_history(
    store: Store, account_id: str, before: Cursor | None = None, limit: int = 20
) -> HistoryPage:
    """The account's games (in play or over), the last changed first, ``limit`` of them
    after ``before`` (from the newest without one)."""
    query = (
        select(games.c.id, games.c.updated_at)
        .where(games.c.id.in_(_games_of(account_id)))
        .order_by(games.c.updated_at.desc(), games.c.id.desc())
        .limit(limit + 1)
    )
    if before is not None:
        at = before.updated_at.astimezone(UTC)
        query = query.where(
            or_(
                games.c.updated_at < at,
                and_(games.c.updated_at == at, games.c.id < before.game_id),
            )
        )
    with reading(store.engine) as c:
        rows = c.execute(query).all()
    shown = rows[:limit]
    after = Cursor(utc(shown[-1].updated_at), shown[-1].id) if len(rows) > limit else None
    return HistoryPage(tuple(store.summaries([r.id for r in shown])), after)


def account_stats(store: Store, account_id: str, name: str) -> PlayerStats | None:
    """The account's statistics over its finished games (None: none finished), under its
    name; its sittings counted as `queries.sitting_results` counts them."""
    query = finished_cards_query().where(seats.c.game_id.in_(_games_of(account_id)))
    mine = select(seats.c.game_id, seats.c.seat).where(seats.c.account_id == account_id)
    with reading(store.engine) as c:
        every = list(c.execute(query))
        own = {(r.game_id, r.seat) for r in c.execute(mine)}
    rows = [r for r in every if (r.game_id, r.seat) in own]
    if not rows:
        return None
    sittings = sitting_results(every)
    played, won = 0, 0
    for seat_name in {who(r) for r in rows}:
        p, w = sittings.get(seat_name, (0, 0))
        played, won = played + p, won + w
    return player_stats(name, rows, Counter(r.game_id for r in every), (played, won))


def account_export(store: Store, account_id: str) -> list[dict[str, Any]]:
    """The account's games as the records' export has them (the oldest first): whole,
    every seat's card and the events, so that they import elsewhere."""
    query = (
        select(games.c.id)
        .where(games.c.id.in_(_games_of(account_id)))
        .order_by(games.c.created_at, games.c.id)
    )
    with reading(store.engine) as c:
        ids = [str(r) for r in c.execute(query).scalars()]
    return export_games(store, ids)


__all__ = [
    "Cursor",
    "HistoryPage",
    "account_export",
    "account_history",
    "account_stats",
]
