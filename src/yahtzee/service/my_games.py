"""An account's games across its devices: "my games" (its turn first), the accounts it
has played with (friends), an invitation by account name, and sitting down at its own
seat from any device; every refusal here.

A seat is acted for by its secret token (`Table.seat_of`), which lives in one device's
storage. A seat that belongs to an account (``SeatState.account``) is the account's on
every device: `sit` gives the signed-in account a fresh token for it (a seat kept for it,
by an invitation or a rematch, is taken so; a seat it holds moves to this device, and the
token the other device held acts no more: its page is let go, and sits down again the
same way). An invitation keeps an open seat of a table in the lobby for an account (by
its name); the account finds it in its "my games" and sits down there.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from ..core import IllegalMove, InvalidInput, player_name
from ..core.language import _
from ..store import tables as records
from ..store.accounts import account_by_key
from ..store.my_games import Friend, MyGames, friends, my_games
from ..store.names import look_alike_key
from .accounts import Account
from .lobby import Forbidden, Lobby
from .table import SeatState, Table, check_name_free, new_token, token_hash

MAX_OPEN_LISTED = 200
"""Open tables "my games" lists at most (``more`` says when there are more)."""
FINISHED_LISTED = 20
"""Finished tables "my games" lists (the last finished)."""
FRIENDS_LISTED = 50
"""Accounts played with that the friends list shows (the last played with first)."""


async def games_of(lobby: Lobby, account: Account) -> MyGames:
    """The account's games (`store.my_games.my_games`): one read of the records."""
    return await asyncio.to_thread(
        my_games, lobby.store, account.id, open_limit=MAX_OPEN_LISTED,
        finished_limit=FINISHED_LISTED,
    )  # fmt: skip


async def friends_of(lobby: Lobby, account: Account) -> list[Friend]:
    """The accounts this one has played with, the last played with first."""
    return await asyncio.to_thread(friends, lobby.store, account.id, FRIENDS_LISTED)


def _no_account() -> InvalidInput:
    return InvalidInput(_("No account has that name."), code="no_account")


async def invite(lobby: Lobby, table: Table, token: str | None, name: str) -> SeatState:
    """The host keeps an open seat of a table in the lobby for the account called
    ``name`` (its name as its owner typed it, or any look-alike spelling): it shows in
    that account's "my games", where its owner sits down (`sit`). Returns the seat."""
    if table.seat_of(token) != 0:
        raise Forbidden(_("Only the host can do that."), code="not_host")
    clean = player_name(name)
    found = await asyncio.to_thread(account_by_key, lobby.store, look_alike_key(clean))
    if found is None:
        raise _no_account()
    async with table.lock:
        lobby._require_open(table)
        if table.status != records.LOBBY:
            raise IllegalMove(_("The game has started: nobody new can sit down."), code="started")
        if any(s.account == found.id for s in table.seats):
            raise IllegalMove(
                _("{name} has a seat at this table already.").format(name=found.name),
                code="seated",
            )
        check_name_free(found.name, [s.name for s in table.seats])
        free = next((s for s in table.seats if s.open and not s.reserved), None)
        if free is None:
            raise IllegalMove(_("Every seat is taken or kept for someone."), code="table_full")
        if not await _record(lobby, table, free, replace(free, name=found.name, account=found.id)):
            raise IllegalMove(_("That seat was just taken: try again."), code="table_full")
    await lobby.room(table).changed()
    return table.seats[free.seat]


async def sit(lobby: Lobby, table: Table, account: Account) -> tuple[int, str]:
    """The signed-in account sits down at its own seat of the table on this device: a
    fresh token for it (see the module's notes). Returns the seat and its token;
    ``not_your_table`` when no seat of the table is the account's (a seat handed to a bot
    is no longer anyone's to sit at)."""
    async with table.lock:
        if table.status != records.FINISHED:  # (a finished one: to see it, and its rematch)
            lobby._require_open(table)
        mine = next((s for s in table.seats if s.account == account.id and s.bot is None), None)
        if mine is None:
            raise Forbidden(_("You have no seat at this table."), code="not_your_table")
        token = new_token()
        if not await _record(lobby, table, mine, replace(mine, token_hash=token_hash(token))):
            raise IllegalMove(_("That seat was just taken: try again."), code="table_full")
    await lobby.room(table).changed()  # (a device that held the seat is let go)
    return mine.seat, token


async def _record(lobby: Lobby, table: Table, seat: SeatState, after: SeatState) -> bool:
    """Record a seat as ``after`` and make it so here; a seat open until now only if
    nobody has taken it meanwhile (through any node). Whether it was recorded."""
    active_at = lobby.clock()
    if not await asyncio.to_thread(
        records.save_table_seat, lobby.store, table.id, after.record(), active_at,
        only_if_open=seat.open,
    ):  # fmt: skip
        return False
    seat.name, seat.token_hash, seat.account = after.name, after.token_hash, after.account
    table.active_at = active_at
    return True


__all__ = [
    "FINISHED_LISTED",
    "FRIENDS_LISTED",
    "MAX_OPEN_LISTED",
    "friends_of",
    "games_of",
    "invite",
    "sit",
]
