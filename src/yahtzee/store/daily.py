"""The daily game in the records: each day's seed, and each player's one result a day.

A day's seed is made once, by whichever server node asks first (an insert that does
nothing when the day already has one, then a read: every node gets the same seed). Its
commitment may be shown at once; the seed itself leaves the records only through
`revealed_seed`, once the day is over. A player's attempt is a row keyed by day and person
(the name's `look_alike_key`: ``Vera1``, ``VERA1``, ``Vera1`` with a fullwidth V or a
Cyrillic e are one person), written in the transaction that records the game: a second
attempt, through any node and under any of the person's spellings, breaks the key and
writes nothing. The name is kept as the player typed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from ..core import Game, IllegalMove, InvalidInput
from ..core.committed import commitment, new_seed
from ..core.errors import show
from ..core.language import _
from .engine import reading, retrying
from .names import look_alike_key
from .schema import daily_results, daily_seeds, games, players
from .store import Store, now, player_id, record_game, utc
from .values import FINISHED, Seat

DAILY_RULES = "official"
"""The daily game is played under the official rules."""


@dataclass(frozen=True, slots=True)
class DailySeed:
    day: date
    seed: str
    commitment: str
    best: int | None
    """Optimal play's score on the day's dice (None until worked out)."""


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A player's daily game as recorded: unfinished while ``score`` is None."""

    day: date
    player: str
    game_id: str
    score: int | None
    loss: float | None
    """Points lost to the best choices (the advisor's review), None until reviewed."""
    started_at: datetime
    finished_at: datetime | None


def _insert_ignoring(connection: Connection) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(daily_seeds).on_conflict_do_nothing(index_elements=["day"])


def seed_of_day(store: Store, day: date) -> DailySeed:
    """The day's seed, made now if no node made it yet (every node gets the same one)."""

    def work() -> DailySeed:
        with store.engine.begin() as c:
            row = c.execute(select(daily_seeds).where(daily_seeds.c.day == day.isoformat())).first()
            if row is None:
                seed = new_seed()
                c.execute(
                    _insert_ignoring(c).values(
                        day=day.isoformat(), seed=seed, commitment=commitment(seed),
                        created_at=now(), best=None,
                    )
                )  # fmt: skip
                row = c.execute(
                    select(daily_seeds).where(daily_seeds.c.day == day.isoformat())
                ).one()
        return DailySeed(day, row.seed, row.commitment, row.best)

    return retrying(work)


def set_best(store: Store, day: date, best: int) -> None:
    """Keep optimal play's score on the day's dice."""
    with store.engine.begin() as c:
        c.execute(update(daily_seeds).where(daily_seeds.c.day == day.isoformat()).values(best=best))


def start_attempt(store: Store, day: date, game_id: str, game: Game, seat: Seat) -> None:
    """Record the player's daily game and its attempt in one transaction; a second attempt
    of the same day (from any node) writes nothing and is `IllegalMove` ``daily_played``."""

    def work() -> None:
        with store.engine.begin() as c:
            record_game(c, game_id, game, [seat])
            c.execute(
                insert(daily_results).values(
                    day=day.isoformat(), player_id=player_id(c, seat.name),
                    player_key=look_alike_key(seat.name), game_id=game_id, score=None,
                    loss=None, started_at=now(), finished_at=None,
                )
            )  # fmt: skip

    try:
        retrying(work)
    except IntegrityError:
        raise IllegalMove(
            _(
                "{player} has played the daily game of {day} already: one "
                "attempt a day. Come back tomorrow."
            ).format(player=seat.name, day=day.isoformat()),
            code="daily_played",
        ) from None


def forget_attempt(store: Store, game_id: str) -> None:
    """Take back an attempt just begun whose table could not be made (its client's quota
    was reached meanwhile): its game and its row go, as if it had never begun."""
    with store.engine.begin() as c:
        c.execute(delete(games).where(games.c.id == game_id))  # its row and events cascade


def finish_attempt(store: Store, game_id: str, score: int, loss: float | None) -> None:
    with store.engine.begin() as c:
        c.execute(
            update(daily_results)
            .where(daily_results.c.game_id == game_id)
            .values(score=score, loss=loss, finished_at=now())
        )


def _results(c: Connection, *conditions: Any) -> list[DailyResult]:
    query = (
        select(daily_results, players.c.name)
        .join(players, players.c.id == daily_results.c.player_id)
        .where(*conditions)
        .order_by(daily_results.c.day, daily_results.c.started_at)
    )
    return [
        DailyResult(
            date.fromisoformat(r.day), r.name, r.game_id, r.score, r.loss, utc(r.started_at),
            utc(r.finished_at) if r.finished_at else None,
        )
        for r in c.execute(query)
    ]  # fmt: skip


def attempt_of(store: Store, day: date, player: str) -> DailyResult | None:
    """The person's attempt of the day, under whichever spelling of ``player`` they began
    it (`look_alike_key`); None if they have not."""
    key = look_alike_key(player)
    with reading(store.engine) as c:
        found = _results(c, daily_results.c.day == day.isoformat(), _person(key))
    return found[0] if found else None


def attempt_of_game(store: Store, game_id: str) -> DailyResult | None:
    """The attempt whose game this is (None for a game that is not a daily one)."""
    with reading(store.engine) as c:
        found = _results(c, daily_results.c.game_id == game_id)
    return found[0] if found else None


def _person(key: str) -> ColumnElement[bool]:
    return daily_results.c.player_key == key


def results_of_day(store: Store, day: date) -> list[DailyResult]:
    """Every attempt of the day, finished or not, in the order they began."""
    with reading(store.engine) as c:
        return _results(c, daily_results.c.day == day.isoformat())


def days_of(store: Store, player: str) -> list[DailyResult]:
    """A person's daily games (under any spelling of ``player``), oldest first."""
    with reading(store.engine) as c:
        return _results(c, _person(look_alike_key(player)))


def is_daily_game(store: Store, game_id: str) -> date | None:
    """The day of a daily game (None for any other game)."""
    return daily_games(store, [game_id]).get(game_id)


def daily_games(store: Store, game_ids: Sequence[str]) -> dict[str, date]:
    """The days of those of these games that are daily games, by game id."""
    if not game_ids:
        return {}
    with reading(store.engine) as c:
        rows = c.execute(
            select(daily_results.c.game_id, daily_results.c.day).where(
                daily_results.c.game_id.in_(game_ids)
            )
        )
        return {str(game_id): date.fromisoformat(day) for game_id, day in rows}


def daily_days(store: Store) -> dict[str, str]:
    """The day of every daily game in the records, by game id (ISO dates)."""
    with reading(store.engine) as c:
        rows = c.execute(select(daily_results.c.game_id, daily_results.c.day))
        return {str(g): str(d) for g, d in rows}


def revealed_seed(store: Store, day: date, today: date) -> str | None:
    """The day's seed once the day is over (``day`` before ``today``), else None."""
    if day >= today:
        return None
    with reading(store.engine) as c:
        seed = c.execute(select(daily_seeds.c.seed).where(daily_seeds.c.day == day.isoformat()))
        return seed.scalar()


def revealed_dice_seed(store: Store, game_id: str, today: date) -> str | None:
    """The seed of a game's committed dice once it may be shown: the game is over (and,
    for a daily game, its day is over too, since everyone plays the day's dice). None
    before, and for a game of other dice."""
    with reading(store.engine) as c:
        row = c.execute(
            select(games.c.status, games.c.dice_seed, daily_results.c.day)
            .outerjoin(daily_results, daily_results.c.game_id == games.c.id)
            .where(games.c.id == game_id)
        ).first()
    if row is None or row.dice_seed is None or row.status != FINISHED:
        return None
    if row.day is not None and date.fromisoformat(row.day) >= today:
        return None
    return str(row.dice_seed)


def import_result(
    c: Connection,
    day: object,
    game_id: str,
    game: Game,
    *,
    dice_seed: str | None,
    loss: float | None,
    started: datetime,
    finished: datetime | None,
) -> None:
    """Record an imported daily game's result, in the import's transaction: the day must be
    a date, the game one player's under the official rules on committed dice, and the dice
    the day's where the records know the day's seed (`InvalidInput` otherwise: a forged
    result changes nothing). A day's seed revealed in the export is recorded with it."""
    opening = game.event_log[0]
    if not isinstance(day, str) or len(day) != len("2026-12-02"):
        raise InvalidInput(
            _("its daily day is a date like 2026-12-02, not {day}.").format(day=show(day))
        )
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise InvalidInput(
            _("its daily day is a date like 2026-12-02, not {day}.").format(day=show(day))
        ) from None
    committed = getattr(opening, "commitment", None)
    if len(game.players) != 1 or game.rules.name != DAILY_RULES or committed is None:
        raise InvalidInput(_("it says it is a daily game, but it is not one (one player, the "
                           "official rules, committed dice)."))  # fmt: skip
    known = c.execute(select(daily_seeds).where(daily_seeds.c.day == when.isoformat())).first()
    if known is not None and known.commitment != committed:
        raise InvalidInput(
            _("it was not played on the dice of the daily game of {day}.").format(day=day)
        )
    if known is None and dice_seed is not None:
        c.execute(_insert_ignoring(c).values(day=day, seed=dice_seed, commitment=committed,
                                             created_at=started, best=None))  # fmt: skip
    name = game.players[0]
    key = look_alike_key(name)
    taken = c.execute(
        select(daily_results.c.game_id).where(daily_results.c.day == day, _person(key))
    ).scalar()
    if taken is not None and taken != game_id:
        raise InvalidInput(
            _("{name} has another daily game of {day} in the records: one a day.").format(
                name=name, day=day
            )
        )
    score = game.cards[0].total if game.is_over else None
    c.execute(
        insert(daily_results).values(
            day=day, player_id=player_id(c, name), player_key=key, game_id=game_id,
            score=score, loss=loss, started_at=started,
            finished_at=finished if game.is_over else None,
        )
    )  # fmt: skip


__all__ = [
    "DailyResult",
    "DailySeed",
    "attempt_of",
    "attempt_of_game",
    "daily_days",
    "days_of",
    "finish_attempt",
    "forget_attempt",
    "import_result",
    "is_daily_game",
    "results_of_day",
    "revealed_dice_seed",
    "revealed_seed",
    "seed_of_day",
    "set_best",
    "start_attempt",
]
