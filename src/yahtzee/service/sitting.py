"""A sitting: the games a table and its rematches played one after the other, like the
columns of a paper pad, and the players' standings across them (total, games won)."""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Game, InvalidInput
from ..store import Store
from ..store import tables as records
from .lobby import MAX_TABLE_ID

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
    if len(sitting_id) > MAX_TABLE_ID:  # a sitting's id is its first table's
        raise InvalidInput("No finished game at such a sitting.", code="no_sitting")
    ids = records.sitting_games(store, sitting_id)[-MAX_SITTING_GAMES:]
    finished = [(one, game) for one in ids if (game := store.load(one)).is_over]
    if not finished:
        raise InvalidInput("No finished game at such a sitting.", code="no_sitting")
    return finished


def sitting_of(store: Store, sitting_id: str) -> Sitting:
    """The finished games of a sitting, in order, and its standings (``no_sitting`` when
    it has none). Seats are the same at every table of a sitting; the names are the
    latest game's."""
    finished = finished_games(store, sitting_id)
    games = tuple(
        SittingGame(game_id, tuple(card.total for card in game.cards), tuple(game.winners))
        for game_id, game in finished
    )
    names = finished[-1][1].players
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


__all__ = [
    "MAX_SITTING_GAMES",
    "Sitting",
    "SittingGame",
    "SittingStanding",
    "finished_games",
    "sitting_of",
]
