"""Rematches: once a game is over, its players sit down together again.

The first player of a finished table who asks makes its rematch: one new table with the
same rules, hints and turn timer, and the same seats in the same order. The bots sit
again as they were (named by their seat, as in any lobby); each human seat is kept
(`SeatState.reserved`) for the player who had it, under that name, and only that
player's own rematch call takes it: the new table's invite link seats nobody. Everyone
else who asks gets the same table, never a second one: the old table records its
rematch by a compare-and-set (`records.create_rematch`), on one server node or several.
The host (seat 0, as before) starts it once every seat is taken, or hands a seat whose
player does not come to a bot.

A player's token at the rematch is derived from their token at the old table (an HMAC
keyed by it, so it tells nothing of the old one), so that asking again gives the same
seat and the same token; only its hash is recorded, as for every token.

A table and its rematches, one after the other, are one sitting (`Table.sitting`). Once
the rematch has ended without being played (cancelled, expired), asking again is
refused (``rematch_gone``): a table has one rematch.

This module is part of the lobby: it works with the `Lobby`'s own steps (a change
checked against the records, and the other nodes told of it).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import uuid
from dataclasses import dataclass

from ..core import IllegalMove
from ..core.language import _
from ..store import tables as records
from .lobby import Forbidden, Lobby
from .table import TOKEN_BYTES, SeatState, Table, new_token, token_hash


@dataclass(frozen=True, slots=True)
class Rematch:
    """A player's seat at a table's rematch."""

    table: Table
    """The rematch."""
    seat: int
    token: str
    """The player's secret token at the rematch (the same each time they ask)."""
    changed: tuple[Table, ...]
    """The tables whose lobby this call changed (whoever is at them was told): the old
    one when the rematch was made, the rematch when the player took their seat."""


def rematch_token(token: str, table_id: str) -> str:
    """A player's token at the rematch ``table_id``, from their token at the table before."""
    digest = hmac.new(token.encode(), f"rematch:{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


def _gone() -> IllegalMove:
    return IllegalMove(
        _(
            "The rematch table has ended (cancelled, or nobody started it in time): "
            "start a new table instead."
        ),
        code="rematch_gone",
    )


def _seat_gone() -> IllegalMove:
    return IllegalMove(_("Your seat at the rematch was handed to a bot."), code="seat_gone")


def _over(table: Table) -> bool:
    session = table.session
    return table.status == records.FINISHED or (session is not None and session.is_over)


def _table_after(lobby: Lobby, table: Table) -> Table:
    """The rematch of a finished table (not recorded yet): its humans' seats kept."""
    seats = [
        SeatState(s.seat, s.bot.seat_name(s.seat), s.bot)
        if s.bot is not None
        else SeatState(s.seat, s.name or f"Seat {s.seat + 1}", account=s.account)
        for s in table.seats
    ]
    return Table(
        str(uuid.uuid4()), table.rules, table.hints_allowed, table.turn_timer, new_token(),
        new_token(), table.owner, records.LOBBY, seats, active_at=lobby.clock(),
        sitting=table.sitting, entered=table.entered, timeout=table.timeout,
    )  # fmt: skip


async def rematch(lobby: Lobby, table: Table, token: str | None) -> Rematch:
    """The seat at a finished table's rematch of the player whose token this is: the
    first to ask makes the rematch (with that seat taken), each other player takes their
    own seat there. Asked again, the same answer."""
    seat = table.seat_of(token)
    if seat is None or token is None:
        raise Forbidden(_("Only a player of this table can ask for a rematch."), code="not_player")
    if table.daily is not None:
        raise IllegalMove(
            _("The daily game has one attempt a day: no rematch."), code="daily_played"
        )
    changed: list[Table] = []
    async with table.lock:
        if not _over(table):
            raise IllegalMove(_("A rematch comes once this game is over."), code="not_over")
        if table.rematch is None:
            made = _table_after(lobby, table)
            made.seats[seat].token_hash = token_hash(rematch_token(token, made.id))
            quota = lobby._quota(made.owner)
            found = await asyncio.to_thread(
                records.create_rematch, lobby.store, table.id, made.record(), quota
            )
            if found is None:
                raise lobby._over_quota()
            table.rematch = found
            if found == made.id:
                lobby._keep(made)
                changed.append(table)
    after = await lobby.find(table.rematch)
    if after is None:
        raise _gone()
    async with after.lock:
        if after.status in (records.CANCELLED, records.EXPIRED) or lobby._idle(after):
            raise _gone()
        mine = rematch_token(token, after.id)
        if await _take(lobby, after, seat, token_hash(mine)):
            changed.append(after)
    for told in changed:  # whoever is at these tables is shown the change
        await lobby.room(told).changed()
    return Rematch(after, seat, mine, tuple(changed))


async def _take(lobby: Lobby, table: Table, seat: int, digest: str) -> bool:
    """The player (by their token's hash) takes the seat kept for them, if it is not
    theirs already (False then)."""
    state = table.seats[seat]
    if state.token_hash == digest:
        return False
    if not state.reserved:
        raise _seat_gone()
    if not await lobby.take_seat(
        table, SeatState(seat, state.name, None, digest, account=state.account)
    ):
        # changed through another node meanwhile (or the same player, asking twice at once)
        if table.seats[seat].token_hash == digest:
            return False
        raise _seat_gone()
    return True


__all__ = ["Rematch", "rematch", "rematch_token"]
