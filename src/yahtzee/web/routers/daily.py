"""The daily game (REST): today's commitments, starting (or going back to) the player's
attempt, the day's leaderboard, a finished attempt's result; and any game's dice (its
commitment, and its seed once revealed). Results are worked out on the server from the
game played at the table, never taken from a client."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request

from ...service import daily, daily_table
from ..accounts import AccountDep
from ..daily_models import DailyBoard, DailyDay, DailyOutcome, DailyStarted, GameDice, StartDaily
from ..deps import LobbyDep, StrictJSONRoute, TokenDep
from ..models import LobbyView

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)


@router.get("/daily")
async def today(lobby: LobbyDep) -> DailyDay:
    """Today's date and commitment, tomorrow's commitment (ahead), yesterday's seed."""
    return DailyDay.of(await asyncio.to_thread(daily_table.day_view, lobby.store))


@router.post("/daily")
async def start(
    body: StartDaily, request: Request, lobby: LobbyDep, token: TokenDep, account: AccountDep
) -> DailyStarted:
    """Today's daily game for ``name``: a new attempt (its table and secret token), or
    with the token of the unfinished one (``Authorization: Bearer``), that one; a
    finished attempt, or an unfinished one without its token: ``409 daily_played``."""
    owner = request.client.host if request.client else "unknown"
    table, seat_token = await daily_table.start(
        lobby, owner, body.name, token, account.id if account else None
    )
    assert table.daily is not None
    return DailyStarted(
        table=LobbyView.of_room(lobby.room(table)),
        seat=0,
        token=seat_token,
        day=table.daily.isoformat(),
    )


@router.get("/daily/{day}/leaderboard")
async def leaderboard(day: str, lobby: LobbyDep) -> DailyBoard:
    """The day's finished games ranked by score and by skill, with optimal play's score
    (``409 day_not_started`` for a day to come, ``404 no_day`` for a past day that had no
    daily game)."""
    when, store = daily.parse_day(day), lobby.store
    await asyncio.to_thread(daily_table.check_day_open, store, when)
    return DailyBoard.of(await asyncio.to_thread(daily.leaderboard, store, when))


@router.get("/daily/tables/{table_id}/result")
async def result(table_id: str, lobby: LobbyDep, token: TokenDep) -> DailyOutcome:
    """The player's finished daily game (by its seat token): score, points lost, the
    day's leaderboard, their days, streak and share line."""
    table = await lobby.lookup(table_id)
    return DailyOutcome.of(await daily_table.outcome(lobby, table, token))


@router.get("/games/{game_id}/dice")
async def dice(game_id: str, lobby: LobbyDep) -> GameDice:
    """A game's commitment and draw, and its seed once revealed (``seed`` null until
    then), with the steps to check it."""
    store = lobby.store

    start, seed = await asyncio.to_thread(daily.game_dice, store, game_id)
    return GameDice.of(game_id, start, seed)
