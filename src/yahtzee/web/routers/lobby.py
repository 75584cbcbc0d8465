"""The lobby (REST): create a table, join it, look at it, start it, hand a seat to a bot,
call it off, and once its game is over sit down again at its rematch. Bodies are read as
strict JSON (no ``NaN``, no ``Infinity``)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ...core import RuleSet
from ...render.pad_html import MAX_PAD_GAMES, render_pad
from ...service import Lobby, sitting_of
from ...service import rematch as rematch_of
from ...service.daily_table import refuse_hidden
from ...service.sitting import finished_games, sitting_from
from ..accounts import AccountDep
from ..deps import LobbyDep, StrictJSONRoute, TokenDep
from ..models import (
    BotChoices,
    BotSeat,
    Created,
    CreateTable,
    Joined,
    JoinTable,
    LobbyView,
    Rematched,
    SittingColumns,
    SittingView,
)
from ..security import printable_policy

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)


@router.get("/bots")
async def bots() -> BotChoices:
    """The bots a new table offers (weakest first), each with what choosing it does, and
    the one a new seat gets."""
    return BotChoices.offered()


@router.post("/tables", status_code=201)
async def create_table(
    body: CreateTable, request: Request, lobby: LobbyDep, account: AccountDep
) -> Created:
    rules = RuleSet.named(body.rules)
    owner = request.client.host if request.client else "unknown"
    table, token = await lobby.create(
        owner,
        body.host,
        [s.seat_bot() for s in body.seats],
        rules,
        hints=body.hints,
        turn_timer=body.turn_timer,
        entered=body.dice == "entered",
        account=account.id if account else None,
    )
    return Created(
        table=LobbyView.of_room(lobby.room(table)),
        seat=0,
        token=token,
        invite=table.invite_token,
        spectate=table.spectator_token,
    )


@router.post("/join/{invite}")
async def join(invite: str, body: JoinTable, lobby: LobbyDep, account: AccountDep) -> Joined:
    table, seat, token = await lobby.join(invite, body.name, account.id if account else None)
    return Joined(table=LobbyView.of_room(lobby.room(table)), seat=seat, token=token)


@router.get("/tables/{table_id}")
async def lobby(table_id: str, lobby: LobbyDep, token: TokenDep) -> LobbyView:
    """A table in the lobby, in play, or finished (read-only, after a restart too); a
    daily game only to its player until its day is over (``403 daily_hidden``)."""
    table = await lobby.lookup(table_id)
    refuse_hidden(table, token)
    return LobbyView.of_room(lobby.room(table))


async def _not_hidden(lobby: Lobby, sitting_id: str, token: str | None) -> None:
    """A daily game's sitting is its own table's: hidden as the table is."""
    table = await lobby.find(sitting_id)
    if table is not None:
        refuse_hidden(table, token)


@router.get("/sittings/{sitting_id}")
async def sitting(sitting_id: str, lobby: LobbyDep, token: TokenDep) -> SittingView:
    """A sitting (a table and its rematches, by the first table's id): its finished
    games in order and the standings across them (read-only, like a table)."""
    await _not_hidden(lobby, sitting_id, token)
    found = await asyncio.to_thread(sitting_of, lobby.store, sitting_id)
    return SittingView.of(found)


@router.get("/sittings/{sitting_id}/columns")
async def sitting_columns(sitting_id: str, lobby: LobbyDep, token: TokenDep) -> SittingColumns:
    """A sitting's finished games as the pad's columns: each game's cards, and each
    player's running total after each game (``404 no_sitting`` before the first ends)."""
    await _not_hidden(lobby, sitting_id, token)
    finished = await asyncio.to_thread(finished_games, lobby.store, sitting_id)
    sitting = sitting_from(sitting_id, finished)
    return SittingColumns.of(sitting, [game for _, game in finished])


@router.get("/sittings/{sitting_id}/pad", response_class=HTMLResponse)
async def sitting_pad(sitting_id: str, lobby: LobbyDep, token: TokenDep) -> HTMLResponse:
    """A sitting's last games as the filled paper pad, to print: one column per game per
    player and a running total (a page of its own: no script, its style allowed by hash)."""
    await _not_hidden(lobby, sitting_id, token)
    games = [game for _, game in await asyncio.to_thread(finished_games, lobby.store, sitting_id)]
    shown = games[-MAX_PAD_GAMES:]
    page = render_pad(shown[-1].rules, shown[-1].players, shown)
    return HTMLResponse(page, headers={"content-security-policy": printable_policy(page)})


@router.delete("/tables/{table_id}")
async def cancel(table_id: str, lobby: LobbyDep, token: TokenDep) -> LobbyView:
    """The host calls off a table that has not started (``status``: ``cancelled``); it is
    gone from then on, and no longer counts against the host's quota."""
    table = await lobby.lookup(table_id)
    await lobby.cancel(table, token)
    return LobbyView.of_room(lobby.room(table))


@router.post("/tables/{table_id}/start")
async def start(table_id: str, lobby: LobbyDep, token: TokenDep) -> LobbyView:
    table = await lobby.lookup(table_id)
    await lobby.start(table, token)
    return LobbyView.of_room(lobby.room(table))


@router.post("/tables/{table_id}/seats/{seat}/bot")
async def to_bot(
    table_id: str, seat: int, body: BotSeat, lobby: LobbyDep, token: TokenDep
) -> LobbyView:
    """The host hands a seat to a bot (``bot``, one of ``GET /api/bots``, or ``level`` 1 to
    5), not once the game is over."""
    spec = body.spec()
    table = await lobby.lookup(table_id)
    await lobby.hand_to_bot(table, token, seat, spec)
    return LobbyView.of_room(lobby.room(table))


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, lobby: LobbyDep, token: TokenDep) -> Rematched:
    """A player of a finished table (by its seat token) sits down at its rematch: the
    first call makes the new table (same settings, the same seats in the same order, each
    human's kept for them), every later one (by any player, at the same moment too) gets
    the same table, with the caller's own seat and token there."""
    table = await lobby.lookup(table_id)
    seat = await rematch_of(lobby, table, token)
    after, host = seat.table, seat.seat == 0
    return Rematched(
        table=LobbyView.of_room(lobby.room(after)),
        seat=seat.seat,
        token=seat.token,
        invite=after.invite_token if host else None,
        spectate=after.spectator_token if host else None,
    )
