"""An account's games across its devices (REST, JSON): "my games", friends, statistics,
history, an invitation by account name and sitting down at its own seat on this device.
See docs/protocol.md, *My games*."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query

from ...service import my_games
from ...store.account_records import account_export, account_history, account_stats
from ...store.transfer import FORMAT, VERSION
from ..accounts import SignedInDep
from ..deps import LobbyDep, StrictJSONRoute, TokenDep
from ..models import Joined, LobbyView
from ..my_models import (
    FriendsView,
    FriendView,
    HistoryView,
    Invite,
    MyExport,
    MyGamesView,
    MyStatsView,
    parse_cursor,
)

router = APIRouter(prefix="/api", route_class=StrictJSONRoute)

MAX_PAGE = 100
"""Games in one page of history at most."""


@router.get("/me/games")
async def games(account: SignedInDep, lobby: LobbyDep) -> MyGamesView:
    """Every open table of the account's (its turn first, the nearest deadline first;
    then the others' turns, then those in the lobby) and its last finished ones."""
    return MyGamesView.of(account.name, await my_games.games_of(lobby, account))


@router.get("/me/friends")
async def friends(account: SignedInDep, lobby: LobbyDep) -> FriendsView:
    """The accounts this one has played with, the last played with first."""
    found = await my_games.friends_of(lobby, account)
    return FriendsView(friends=[FriendView.of(f) for f in found])


@router.get("/me/stats")
async def stats(account: SignedInDep, lobby: LobbyDep) -> MyStatsView:
    """The account's statistics over its finished games."""
    found = await asyncio.to_thread(account_stats, lobby.store, account.id, account.name)
    return MyStatsView(stats=None if found is None else found.to_dict())


@router.get("/me/history")
async def history(
    account: SignedInDep,
    lobby: LobbyDep,
    before: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
) -> HistoryView:
    """The account's games, the last changed first, a page at a time (``before``: the
    ``next`` of the page before)."""
    cursor = parse_cursor(before)
    page = await asyncio.to_thread(account_history, lobby.store, account.id, cursor, limit)
    return HistoryView.of(page)


@router.get("/me/export")
async def export(account: SignedInDep, lobby: LobbyDep) -> MyExport:
    """The account's games as the records' export has them (``yahtzee import`` reads it):
    whole, with every seat's card and the events."""
    games = await asyncio.to_thread(account_export, lobby.store, account.id)
    return MyExport(format=FORMAT, version=VERSION, games=games)


@router.post("/tables/{table_id}/invite")
async def invite(table_id: str, body: Invite, lobby: LobbyDep, token: TokenDep) -> LobbyView:
    """The host keeps an open seat of a table in the lobby for the account of this name."""
    table = await lobby.lookup(table_id)
    await my_games.invite(lobby, table, token, body.account)
    return LobbyView.of_room(lobby.room(table))


@router.post("/tables/{table_id}/seat")
async def seat(table_id: str, account: SignedInDep, lobby: LobbyDep) -> Joined:
    """The signed-in account sits down at its own seat of the table on this device (a
    fresh token; a device that held the seat before is let go)."""
    table = await lobby.lookup(table_id)
    number, token = await my_games.sit(lobby, table, account)
    return Joined(table=LobbyView.of_room(lobby.room(table)), seat=number, token=token)
