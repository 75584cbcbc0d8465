"""A sitting: the games a table and its rematches played one after the other, like the
columns of a paper pad, and the players' standings across them (total, games won)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core import Game, InvalidInput
from ..core.language import _
from ..store import Store
from ..store import tables as records
from .table import MAX_ID

MAX_SITTING_GAMES = 50
"""The most recent games a sitting's standings count (a sitting this long is rare)."""


@dataclass(frozen=True, slots=True)
class SittingGame:
    """One finished game of the sitting: each seat's total, and the seats that won."""

    game_id: str
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SittingStanding:
    """A seat across the sitting: its total over the games, and the games it won (a
    shared first place counts as a win for each)."""

    seat: int
    name: str
    total: int
    won: int


@dataclass(frozen=True, slots=True)
class Sitting:
    id: str
    games: tuple[SittingGame, ...]
    standings: tuple[SittingStanding, ...]


def finished_games(store: Store, sitting_id: str) -> list[tuple[str, Game]]:
    """A sitting's finished games (their ids and games), in order, its last
    `MAX_SITTING_GAMES`; ``no_sitting`` when it has none."""
    if len(sitting_id) > MAX_ID:  # a sitting's id is its first table's
        raise InvalidInput(_("No finished game at such a sitting."), code="no_sitting")
    ids = records.sitting_games(store, sitting_id)[-MAX_SITTING_GAMES:]
    finished = [(one, game) for one in ids if (game := store.load(one)).is_over]
    if not finished:
        raise InvalidInput(_("No finished game at such a sitting."), code="no_sitting")
    return finished


def sitting_of(store: Store, sitting_id: str) -> Sitting:
    """The finished games of a recorded sitting, in order, and its standings
    (``no_sitting`` when it has none)."""
    return sitting_from(sitting_id, finished_games(store, sitting_id))


def sitting_from(sitting_id: str, finished: Sequence[tuple[str, Game]]) -> Sitting:
    """The sitting of these finished games (ids and games, in order; a terminal game not
    recorded keeps them in memory). Seats are the same at every game of a sitting; the
    names are the latest game's."""
    games = tuple(
        SittingGame(game_id, tuple(card.total for card in game.cards), tuple(game.winners))
        for game_id, game in finished
        if game.is_over
    )
    names = finished[-1][1].players if finished else ()
    standings = tuple(
        SittingStanding(
            seat,
            name,
            sum(g.totals[seat] for g in games if seat < len(g.totals)),
            sum(seat in g.winners for g in games),
        )
        for seat, name in enumerate(names)
    )
    return Sitting(sitting_id, games, standings)


def running_totals(sitting: Sitting) -> tuple[tuple[int, ...], ...]:
    """Each seat's running total after each game, as the paper pad's last line reads:
    one tuple per game, one number per seat."""
    seats = len(sitting.standings)
    running = [0] * seats
    rows = []
    for game in sitting.games:
        for seat in range(min(seats, len(game.totals))):
            running[seat] += game.totals[seat]
        rows.append(tuple(running))
    return tuple(rows)


__all__ = [
    "MAX_SITTING_GAMES",
    "Sitting",
    "SittingGame",
    "SittingStanding",
    "finished_games",
    "running_totals",
    "sitting_from",
    "sitting_of",
]
