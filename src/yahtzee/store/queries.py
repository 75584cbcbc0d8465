"""Questions asked of the records: games to resume, history, statistics, high scores."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..core import (
    ROUNDS,
    UPPER_BONUS_THRESHOLD,
    YAHTZEE_BONUS,
    YAHTZEE_POINTS,
    BotSpec,
    YahtzeeError,
)
from .schema import cards, games, players, seats
from .store import ACTIVE, FINISHED, GameSummary, Store, utc


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's statistics over the records: games, wins, average, best, spread, bonus rates,
    advisor loss."""

    player: str
    games: int
    wins: int
    average: float
    best: int
    std_dev: float
    upper_bonus_rate: float
    yahtzee_rate: float
    yahtzee_bonuses: int
    hinted_games: int
    reviewed_games: int
    loss_per_game: float | None
    loss_per_decision: float | None

    def to_dict(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class HighScore:
    """One line of the high-score table: rank, player, total, game and date."""

    rank: int
    player: str
    total: int
    game_id: str
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class GameProgress:
    """How far an unfinished game got, read from its event log: where it stands
    (``round 5 of 13``, or ``playoff``) and each player's total so far."""

    stage: str
    totals: tuple[int, ...]


def progress_of(store: Store, game_id: str) -> GameProgress | None:
    """The progress of a recorded game (``None``: a record this version cannot read)."""
    try:
        game = store.load(game_id)
    except YahtzeeError:
        return None
    turn = game.turn
    if game.is_over:
        stage = "over"
    else:
        stage = f"round {turn.round} of {ROUNDS}" if turn is not None else "playoff"
    return GameProgress(stage, tuple(card.total for card in game.cards))


def unfinished(store: Store, player: str | None = None) -> list[GameSummary]:
    """Games still in progress, most recently played first."""
    return history(store, player=player, status=ACTIVE)


def history(
    store: Store,
    *,
    player: str | None = None,
    rules: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    status: str | None = None,
    limit: int | None = None,
) -> list[GameSummary]:
    """Games, newest first, filtered by player name, rule set, date (``since`` inclusive,
    ``until`` exclusive, on the start time) and status."""
    query = select(games.c.id).order_by(games.c.updated_at.desc(), games.c.id)
    if player is not None:
        query = query.where(
            games.c.id.in_(
                select(seats.c.game_id)
                .join(players, players.c.id == seats.c.player_id)
                .where(players.c.name == player)
            )
        )
    if rules is not None:
        query = query.where(games.c.rules == rules)
    if since is not None:
        query = query.where(games.c.created_at >= since)
    if until is not None:
        query = query.where(games.c.created_at < until)
    if status is not None:
        query = query.where(games.c.status == status)
    if limit is not None:
        if limit < 1:
            raise YahtzeeError("The limit is a positive number of games.")
        query = query.limit(limit)
    with store.engine.connect() as connection:
        ids = [row[0] for row in connection.execute(query)]
    return store.summaries(ids)


def _finished_cards(store: Store, player: str | None, rules: str | None) -> list[Any]:
    query = (
        select(
            players.c.name, cards.c.total, cards.c.upper_subtotal, cards.c.yahtzee_box,
            cards.c.yahtzee_bonus, cards.c.winner, cards.c.decisions, cards.c.advisor_loss,
            cards.c.game_id, games.c.finished_at, games.c.rules, seats.c.bot,
            seats.c.hints_used,
        )
        .join(seats, (seats.c.game_id == cards.c.game_id) & (seats.c.seat == cards.c.seat))
        .join(players, players.c.id == seats.c.player_id)
        .join(games, games.c.id == cards.c.game_id)
        .where(games.c.status == FINISHED)
    )  # fmt: skip
    if rules is not None:
        query = query.where(games.c.rules == rules)
    with store.engine.connect() as connection:
        rows = list(connection.execute(query))
    return [r for r in rows if player is None or who(r) == player]


def who(row: Any) -> str:
    """Whose record a finished card is: a human by name; a bot by its strategy and level
    (``Bot (level 3)``), whatever it was called at its table."""
    return BotSpec.parse(row.bot).label if row.bot else str(row.name)


def stats(store: Store, player: str | None = None, rules: str | None = None) -> list[PlayerStats]:
    """Per player over finished games (all players when ``player`` is None), by name."""
    by_player: dict[str, list[Any]] = {}
    for row in _finished_cards(store, player, rules):
        by_player.setdefault(who(row), []).append(row)
    result = []
    for name in sorted(by_player, key=str.casefold):
        rows = by_player[name]
        totals = [r.total for r in rows]
        reviewed = [r for r in rows if r.advisor_loss is not None]
        decisions = sum(r.decisions or 0 for r in reviewed)
        loss = sum(r.advisor_loss for r in reviewed)
        result.append(
            PlayerStats(
                player=name,
                games=len(rows),
                wins=sum(1 for r in rows if r.winner),
                average=statistics.fmean(totals),
                best=max(totals),
                std_dev=statistics.stdev(totals) if len(totals) > 1 else 0.0,
                upper_bonus_rate=sum(r.upper_subtotal >= UPPER_BONUS_THRESHOLD for r in rows)
                / len(rows),
                yahtzee_rate=sum(r.yahtzee_box == YAHTZEE_POINTS for r in rows) / len(rows),
                yahtzee_bonuses=sum(r.yahtzee_bonus for r in rows) // YAHTZEE_BONUS,
                hinted_games=sum(1 for r in rows if r.hints_used),
                reviewed_games=len(reviewed),
                loss_per_game=loss / len(reviewed) if reviewed else None,
                loss_per_decision=loss / decisions if decisions else None,
            )
        )
    return result


def high_scores(store: Store, rules: str = "official", limit: int = 10) -> list[HighScore]:
    """The best finished totals under a rule set, best first (earlier games first on ties)."""
    rows = sorted(_finished_cards(store, None, rules), key=lambda r: (-r.total, r.finished_at))
    return [
        HighScore(rank + 1, who(r), r.total, r.game_id, utc(r.finished_at))
        for rank, r in enumerate(rows[:limit])
    ]
