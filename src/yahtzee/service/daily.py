"""The daily game: one game a day (UTC) for everyone, on the same duplicate dice, ranked by
score and by skill (the points a player's choices lost against the best ones).

Online, the day's seed is secret: its commitment is shown from the day before, the seed
once the day is over, and each player has one attempt a day (an unfinished attempt goes
on; a finished one is final), under whichever spelling of their name: names that differ
only in capitals, letter forms or look-alike letters are one player
(`store.names.look_alike_key`). Offline, the terminal game's daily is derived from the date
alone, so anyone can work its dice out ahead: it cannot be ranked, and says so.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from ..core import Game, IllegalMove, InvalidInput, Keep, RuleSet
from ..core.committed import commitment
from ..core.duplicate import DuplicateDice
from ..core.language import _, ngettext
from ..store import Seat, Store
from ..store import daily as records
from .session import REVIEW_DECIMALS, GameSession
from .table import MAX_ID

DAILY_RULES = records.DAILY_RULES


def today() -> date:
    return datetime.now(UTC).date()


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise InvalidInput(
            _("A day is written 2026-12-02, not {text}.").format(text=repr(text))
        ) from None


def game_dice(store: Store, game_id: str) -> tuple[dict[str, object], str | None]:
    """A recorded game's start event (its commitment and its draw) and its dice seed once
    revealed (None until then: a daily game's at the day's end); ``no_game`` for a game
    the records do not hold."""
    log = store.event_log(game_id) if len(game_id) <= MAX_ID else []
    if not log:
        raise InvalidInput(_("No such game in the records."), code="no_game")
    return log[0], records.revealed_dice_seed(store, game_id, today())


def offline_seed(day: date) -> str:
    """The terminal game's daily seed: anyone can derive it from the date (so unranked)."""
    return hashlib.sha256(f"yahtzee offline daily {day.isoformat()}".encode()).hexdigest()


def start_daily(store: Store, name: str, day: date | None = None) -> GameSession:
    """``name``'s daily game of today: a new one (its attempt recorded with it), or the
    unfinished one they began; a finished one is refused (``daily_played``). The next
    day's seed is made too, so its commitment can be shown ahead."""
    day = day or today()
    seed = records.seed_of_day(store, day)
    records.seed_of_day(store, day + timedelta(days=1))
    found = records.attempt_of(store, day, name)
    if found is not None and found.score is None:
        return GameSession.resume(store, found.game_id, dice=DuplicateDice(seed.seed), hints=False)
    if found is not None:
        raise IllegalMove(
            _(
                "{name} has played the daily game of {day} already ({points} points): one "
                "attempt a day. Come back tomorrow."
            ).format(name=played_as(name, found.player), day=day.isoformat(), points=found.score),
            code="daily_played",
        )
    seat = Seat(name)
    session = GameSession.prepared([seat], RuleSet.named(DAILY_RULES), store, str(uuid.uuid4()),
                                   dice=DuplicateDice(seed.seed), hints=False)  # fmt: skip
    records.start_attempt(store, day, session.game_id or "", session.game, seat)
    session.sitting = session.game_id
    return session


def finish_daily(store: Store, session: GameSession) -> records.DailyResult:
    """Record the finished daily game's score and the points its choices lost."""
    if not session.is_over or session.game_id is None:
        raise IllegalMove(_("The daily game is not over yet."), code="not_over")
    records.finish_attempt(store, session.game_id, session.game.cards[0].total, _loss(session))
    found = records.attempt_of_game(store, session.game_id)
    assert found is not None
    return found


def played_as(name: str, recorded: str) -> str:
    """Who played, for a refusal: ``name``, and the spelling the attempt was begun under
    when that differs (``VERA1 (as Vera1)``)."""
    return name if name == recorded else f"{name} (as {recorded})"


def _loss(session: GameSession) -> float:
    """The points the player's choices lost against the best ones (the advisor's review)."""
    return round(sum(p.total_loss for p in session.review()), REVIEW_DECIMALS)


def best_score(seed: str) -> int:
    """Optimal play's score on a day's dice: the yardstick of the leaderboard."""
    from ..solver import cached_solver  # noqa: PLC0415

    rules = RuleSet.named(DAILY_RULES)
    game, solver = Game(["Optimal"], rules, DuplicateDice(seed)), cached_solver(rules)
    while not game.is_over:
        situation = game.situation()  # None before a turn's first roll: roll
        game.play(solver.advise(situation).best.action if situation else Keep.NONE)
    return game.cards[0].total


def is_offline_daily(events: list[dict[str, object]], day: date) -> bool:
    """Whether a recorded game is the offline daily of ``day`` (its start event commits to
    the date's own seed)."""
    return bool(events) and events[0].get("commitment") == commitment(offline_seed(day))


def offline_days(store: Store, name: str) -> list[tuple[date, str]]:
    """``name``'s offline daily games in the records (their days and ids), oldest first."""
    from ..store import history  # noqa: PLC0415

    found = []
    for summary in reversed(history(store, player=name, rules=DAILY_RULES)):
        day = summary.created_at.date()
        if len(summary.players) == 1 and is_offline_daily(store.event_log(summary.id)[:1], day):
            found.append((day, summary.id))
    return found


def start_offline_daily(store: Store | None, name: str, day: date | None = None) -> GameSession:
    """The terminal game's daily of ``day`` (today by default), on the date's own dice:
    the one begun today goes on; a finished one is `IllegalMove` ``daily_played``. Not
    ranked: anyone can work its dice out from the date."""
    day = day or today()
    if store is not None:
        for played, game_id in offline_days(store, name):
            if played != day:
                continue
            if not store.load(game_id).is_over:
                return GameSession.resume(store, game_id, hints=False, undo=False)
            total = store.load(game_id).cards[0].total
            raise IllegalMove(
                _(
                    "{name} has played the daily game of {day} already ({points} points). "
                    "Come back tomorrow, or play a game: yahtzee play."
                ).format(name=name, day=day.isoformat(), points=total),
                code="daily_played",
            )
    rules, dice = RuleSet.named(DAILY_RULES), DuplicateDice(offline_seed(day))
    return GameSession.new([Seat(name)], rules, store=store, dice=dice, hints=False, undo=False)


def daily_result(session: GameSession, day: date) -> records.DailyResult:
    """A finished daily game as a result: its score and the points its choices lost."""
    loss = _loss(session)
    stamp = datetime.now(UTC)
    return records.DailyResult(day, session.seats[0].name, session.game_id or "",
                               session.game.cards[0].total, loss, stamp, stamp)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Ranked:
    place: int
    result: records.DailyResult


@dataclass(frozen=True, slots=True)
class Leaderboard:
    day: date
    commitment: str
    best: int | None
    by_score: tuple[Ranked, ...]
    by_skill: tuple[Ranked, ...]


def _ranked(
    results: list[records.DailyResult], key: Callable[[records.DailyResult], tuple[float, float]]
) -> tuple[Ranked, ...]:
    places: list[Ranked] = []
    for index, result in enumerate(sorted(results, key=key)):
        same = bool(places) and key(places[-1].result) == key(result)
        places.append(Ranked(places[-1].place if same else index + 1, result))
    return tuple(places)


def leaderboard(store: Store, day: date) -> Leaderboard:
    """The day's finished games ranked by score (then skill) and by skill (the fewest
    points lost, then score), with optimal play's score on the day's dice."""
    seed = records.seed_of_day(store, day)
    best = seed.best
    if best is None:
        best = best_score(seed.seed)
        records.set_best(store, day, best)
    done = [r for r in records.results_of_day(store, day) if r.score is not None]
    return Leaderboard(
        day,
        seed.commitment,
        best,
        _ranked(done, lambda r: (-(r.score or 0), r.loss or 0.0)),
        _ranked(done, lambda r: (r.loss or 0.0, -(r.score or 0))),
    )


def streak(days: list[date], until: date) -> int:
    """Days played in a row up to ``until`` (or up to the day before, if not yet today)."""
    played = set(days)
    current = until if until in played else until - timedelta(days=1)
    count = 0
    while current in played:
        count += 1
        current -= timedelta(days=1)
    return count


def share_line(result: records.DailyResult, best: int | None, streak_days: int) -> str:
    """The result to share, without spoilers: no dice, no boxes."""
    points = result.score if result.score is not None else 0
    scored = ngettext("{n} point", "{n} points", points).format(n=result.score)
    if best is not None:
        scored = _("{points} (optimal play: {best})").format(points=scored, best=best)
    lost = ""
    if result.loss is not None:
        lost = _("{loss} points lost to the best choices").format(loss=f"{result.loss:.1f}")
    parts = [scored, lost]
    if streak_days > 1:
        parts.append(
            ngettext("{n} day in a row", "{n} days in a row", streak_days).format(n=streak_days)
        )
    # Translators: {day} is the date (2026-12-02), {result} the points, the points lost and
    # the days in a row, joined by commas.
    return _("Yahtzee daily {day}: {result}.").format(
        day=result.day.isoformat(), result=", ".join(parts)
    )


__all__ = [
    "DAILY_RULES",
    "Leaderboard",
    "Ranked",
    "best_score",
    "daily_result",
    "finish_daily",
    "leaderboard",
    "offline_days",
    "offline_seed",
    "parse_day",
    "played_as",
    "share_line",
    "start_daily",
    "start_offline_daily",
    "streak",
    "today",
]
