"""The daily game online: each player's attempt of the day is a table of one seat (its id
the game's), played like any other table but with no bots, no hints and no undo.

The player's secret token (kept by their browser) is the only way back into an
unfinished attempt: the same name without it is refused (``daily_played``), so nobody
takes over another player's game by typing their name. The same name is any spelling
that differs only in capitals, letter forms or look-alike letters
(`store.names.look_alike_key`): one person, one attempt. An attempt is a table like any
other of its client's address, counted in the address's quota (``too_many_tables``), and
one left unfinished expires when its day is over (`Lobby.expire_idle`).

Nobody but its player sees a daily game before its day is over (``daily_hidden``):
everyone plays the same dice, so another player's game would give the day's dice away.
Results are never sent by a client: the server works them out from the game itself when
it is over.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy.exc import IntegrityError

from ..core import IllegalMove, InvalidInput, player_name
from ..core.committed import commitment
from ..core.language import _
from ..store import Store
from ..store import daily as records
from ..store import tables as table_records
from . import daily
from .lobby import Forbidden, Lobby
from .session import GameSession
from .table import SeatState, Table, new_token, token_hash


def hidden(table: Table, token: str | None = None) -> bool:
    """Whether ``table`` is a daily game that the holder of ``token`` may not see yet
    (another player's, before its day is over)."""
    if table.daily is None or table.daily < daily.today():
        return False
    return table.seat_of(token) is None


def refuse_hidden(table: Table, token: str | None = None) -> None:
    if hidden(table, token):
        raise Forbidden(
            _(
                "A daily game stays hidden until its day is over (after {day} UTC): "
                "everyone plays the same dice."
            ).format(day=table.daily),
            code="daily_hidden",
        )


def made_daily(session: GameSession) -> GameSession:
    """A daily game's session as a table plays it: no hints, no undo."""
    session.hints_allowed = False
    session.undo_allowed = False
    return session


def _played(name: str, day: date, *, begun: bool) -> IllegalMove:
    """The refusal of a second attempt at the day's game (played, or ``begun`` elsewhere)."""
    if begun:
        message = _(
            "{name} has begun (in another browser) the daily game of {day}: one attempt a "
            "day. Come back tomorrow."
        )
    else:
        message = _(
            "{name} has played the daily game of {day}: one attempt a day. Come back tomorrow."
        )
    return IllegalMove(message.format(name=name, day=day.isoformat()), code="daily_played")


async def start(
    lobby: Lobby, owner: str, name: str, token: str | None, account: str | None = None
) -> tuple[Table, str]:
    """``name``'s daily table of today (by the lobby's clock) and its token: a new attempt
    (if ``owner`` has a table to spare in its quota), or with the token of the unfinished
    one, that one again; otherwise ``daily_played``. ``account``: the signed-in player's
    (a new attempt's seat, at its table and in its game, is the account's)."""
    store, day, name = lobby.store, lobby.today(), player_name(name)
    found = await asyncio.to_thread(records.attempt_of, store, day, name)
    if found is not None:
        table = await lobby.find(found.game_id)
        if found.score is None and table is not None and table.seat_of(token) == 0:
            assert token is not None
            return table, token
        begun = found.score is None
        raise _played(daily.played_as(name, found.player), day, begun=begun)
    await lobby.check_quota(owner)  # before the attempt is recorded
    session = made_daily(await asyncio.to_thread(daily.start_daily, store, name, day))
    game_id = session.game_id or ""
    token = new_token()
    table = Table(
        game_id, session.game.rules, False, None, new_token(), new_token(), owner,
        table_records.PLAYING, [SeatState(0, name, None, token_hash(token), account=account)],
        active_at=lobby.clock(), daily=day,
    )  # fmt: skip
    lobby._serve(table, session)  # (first, so that its record names its game)
    assert table.live is not None
    try:
        await lobby._record_new(table)
    except IntegrityError:  # the same attempt begun at the same moment elsewhere
        table.live.close()
        raise _played(name, day, begun=True) from None
    except Forbidden:  # the quota, reached meanwhile: the attempt was never made
        table.live.close()
        await asyncio.to_thread(records.forget_attempt, store, game_id)
        raise
    lobby._keep(table)
    if account is not None:  # its game's seat (recorded before the table) too
        await lobby.claim_seats(account, [token])
    return table, token


@dataclass(frozen=True, slots=True)
class DayView:
    day: date
    commitment: str
    tomorrow: str
    yesterday: date
    yesterday_commitment: str | None
    yesterday_seed: str | None


def day_view(store: Store) -> DayView:
    """Today's commitment, tomorrow's (shown ahead), yesterday's revealed seed."""
    day = daily.today()
    today_seed = records.seed_of_day(store, day)
    tomorrow = records.seed_of_day(store, day + timedelta(days=1))
    yesterday = day - timedelta(days=1)
    seed = records.revealed_seed(store, yesterday, day)
    return DayView(day, today_seed.commitment, tomorrow.commitment, yesterday,
                   commitment(seed) if seed else None, seed)  # fmt: skip


def check_day_open(store: Store, day: date) -> None:
    """No leaderboard for a day that has not begun (``day_not_started``), nor for a past
    day that had no daily game (``no_day``: nothing is made for it)."""
    today = daily.today()
    if day > today:
        raise IllegalMove(
            _("The daily game of {day} has not begun yet.").format(day=day.isoformat()),
            code="day_not_started",
        )
    if day < today and records.revealed_seed(store, day, today) is None:
        raise InvalidInput(
            _("There was no daily game on {day}.").format(day=day.isoformat()), code="no_day"
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    result: records.DailyResult
    board: daily.Leaderboard
    days: list[records.DailyResult]
    streak: int
    share: str


async def outcome(lobby: Lobby, table: Table, token: str | None) -> Outcome:
    """The player's finished daily game: their result (worked out from the game, now if
    the server has not yet), the day's leaderboard, their days, streak and share line."""
    if table.daily is None:
        raise IllegalMove(_("This table is not a daily game."), code="not_daily")
    if table.seat_of(token) != 0:
        raise Forbidden(_("Only the player of this daily game sees its result."), code="not_player")
    session = table.session
    if session is None or not session.is_over:
        raise IllegalMove(_("The daily game is not over yet."), code="not_over")
    store, day = lobby.store, table.daily

    def work() -> Outcome:
        name = session.seats[0].name
        found = records.attempt_of_game(store, table.id)
        if found is None or found.score is None:
            found = daily.finish_daily(store, session)
        board = daily.leaderboard(store, day)
        days = [r for r in records.days_of(store, name) if r.score is not None]
        streak = daily.streak([r.day for r in days], daily.today())
        return Outcome(found, board, days, streak, daily.share_line(found, board.best, streak))

    return await asyncio.to_thread(work)


__all__ = [
    "DayView",
    "Outcome",
    "check_day_open",
    "day_view",
    "hidden",
    "made_daily",
    "outcome",
    "refuse_hidden",
    "start",
]
