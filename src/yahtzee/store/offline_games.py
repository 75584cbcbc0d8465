"""The records of offline games: a game played on a device without the server, uploaded by
an account once it was over (`service.offline_games` replays it first). It is kept as any
game is (its row, seats, events and cards), marked ``offline`` (never ranked), the
account's seat its own; ``offline_games`` remembers which upload made it, so that the same
upload sent again keeps nothing new (and two sent at once keep one)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..core import Game
from .engine import reading, retrying
from .schema import games, offline_games, seats
from .store import Store, append_events, now, player_ids
from .values import ENTERED, ROLLED, Seat


@dataclass(frozen=True, slots=True)
class OfflineRecord:
    """What an upload keeps: the account, the id its device gave the game, the game's
    digest (see `offline_games.digest`), the game (over), its seats, the account's seat and
    when it ended."""

    account_id: str
    client_id: str
    digest: str
    game: Game
    seats: tuple[Seat, ...]
    account_seat: int
    finished_at: datetime


@dataclass(frozen=True, slots=True)
class KeptOffline:
    """The game an upload's id names: its id, its digest, and whether this upload kept it
    (False: an earlier upload of the same id did)."""

    game_id: str
    digest: str
    new: bool


class _Taken(Exception):
    """An upload of the same id committed first: this one's writes are rolled back."""


def kept_offline(store: Store, account_id: str, client_id: str) -> KeptOffline | None:
    """The game an earlier upload of this id by the account kept (None: none)."""
    with reading(store.engine) as c:
        return _kept(c, account_id, client_id)


def _kept(c: Connection, account_id: str, client_id: str) -> KeptOffline | None:
    row = c.execute(
        select(offline_games.c.game_id, offline_games.c.digest).where(
            offline_games.c.account_id == account_id, offline_games.c.client_id == client_id
        )
    ).first()
    return None if row is None else KeptOffline(str(row.game_id), str(row.digest), False)


def keep_offline(store: Store, record: OfflineRecord) -> KeptOffline:
    """Keep the uploaded game, in one transaction, unless an upload of the same id by the
    same account did already: then that one's game (``new`` False), and nothing written.
    Two at once: the key ``(account_id, client_id)`` lets one commit, the other rolls
    back and answers the first's game."""

    def work() -> KeptOffline:
        with store.engine.begin() as c:
            found = _kept(c, record.account_id, record.client_id)
            if found is not None:
                return found
            game_id = str(uuid.uuid4())
            _record(c, game_id, record)
            dialect = postgresql if c.dialect.name == "postgresql" else sqlite
            claimed = c.execute(
                dialect.insert(offline_games)
                .values(
                    account_id=record.account_id, client_id=record.client_id,
                    game_id=game_id, digest=record.digest, uploaded_at=now(),
                )
                .on_conflict_do_nothing(index_elements=["account_id", "client_id"])
                .returning(offline_games.c.game_id)
            ).first()  # fmt: skip
            if claimed is None:  # (not its rowcount: on PostgreSQL it said 1 for a conflict too)
                raise _Taken
            return KeptOffline(game_id, record.digest, True)

    try:
        return retrying(work)
    except _Taken:
        found = kept_offline(store, record.account_id, record.client_id)
        assert found is not None  # (the upload that won committed it)
        return found


def _record(c: Connection, game_id: str, record: OfflineRecord) -> None:
    game, when = record.game, record.finished_at
    c.execute(
        insert(games).values(
            id=game_id, rules=game.rules.name, edition=game.rules.edition.name, seed=None,
            status="active", created_at=when, updated_at=when, finished_at=None,
            event_count=0, hints_used=False, sitting=game_id,
            dice=ENTERED if game.entered else ROLLED, dice_seed=None, offline=True,
        )
    )  # fmt: skip
    ids = player_ids(c, [seat.name for seat in record.seats])
    c.execute(
        insert(seats),
        [
            {"game_id": game_id, "seat": index, "player_id": ids[seat.name], "kind": seat.kind,
             "bot": seat.bot.key if seat.bot else None,
             "account_id": record.account_id if index == record.account_seat else None}
            for index, seat in enumerate(record.seats)
        ],
    )  # fmt: skip
    append_events(c, game_id, game, 0)  # (the cards too: the game is over)
    c.execute(update(games).where(games.c.id == game_id).values(updated_at=when, finished_at=when))


__all__ = ["KeptOffline", "OfflineRecord", "keep_offline", "kept_offline"]
