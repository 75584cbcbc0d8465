"""A new table and a table's start on PostgreSQL: one call each of the functions of
migration 0013 (the start's as migration 0021 made it: with the game's edition), in
autocommit (the function is its own transaction), so one round trip to the server
instead of three and ten. They decide as `tables.create_table` and
`tables.start_table` do on SQLite; those call these on PostgreSQL.

The arrays go as the text of PostgreSQL arrays (`pg_commit.array_text`), as the group
commit's do: the statement is the same text every time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from ..core import Game
from ..core.events import event_to_dict
from .engine import single_write
from .pg_commit import array_text
from .values import ACTIVE, ENTERED, ROLLED, Seat, TableRecord, TableSeatRecord

_CREATE = """
SELECT yahtzee_create_table(
    %(id)s, %(rules)s, %(hints)s, %(timer)s, %(invite)s, %(spectator)s, %(status)s,
    %(game)s, %(owner)s, %(created)s, %(sitting)s, %(rematch)s, %(dice)s,
    %(seat)s::int[], %(name)s::varchar[], %(bot)s::varchar[], %(token)s::varchar[],
    %(limit)s, %(since)s, %(lobby)s, %(playing)s)
"""

_START = """
SELECT yahtzee_start_table(
    %(table)s, %(seat)s::int[], %(name)s::varchar[], %(bot)s::varchar[],
    %(token)s::varchar[], %(game)s, %(rules)s, %(edition)s, %(seed)s, %(dice)s, %(dice_seed)s,
    %(active)s, %(players)s::varchar[], %(kinds)s::varchar[], %(bots)s::varchar[],
    %(types)s::varchar[], %(data)s::text[], %(stamp)s, %(active_at)s, %(lobby)s, %(playing)s)
"""

STARTED = "started"
CHANGED = "changed"


def create(
    engine: Engine,
    table: TableRecord,
    created: datetime,
    quota: tuple[int, datetime] | None,
    statuses: tuple[str, str],
) -> bool:
    """Write ``table`` (made at ``created``) unless its owner has ``quota`` (the limit, and
    since when a lobby counts) open tables already; ``statuses``: lobby and in play."""
    limit, since = quota if quota is not None else (None, None)
    params = {
        "id": table.id, "rules": table.rules, "hints": table.hints_allowed,
        "timer": table.turn_timer, "invite": table.invite_token,
        "spectator": table.spectator_token, "status": table.status, "game": table.game_id,
        "owner": table.owner, "created": created, "sitting": table.sitting_id,
        "rematch": table.rematch, "dice": ENTERED if table.entered else ROLLED,
        **_seats(table.seats), "limit": limit, "since": since, "lobby": statuses[0],
        "playing": statuses[1],
    }  # fmt: skip
    return bool(_call(engine, _CREATE, params))


def start(
    engine: Engine,
    table_id: str,
    expected: Sequence[TableSeatRecord],
    *,
    game_id: str,
    game: Game,
    seats: Sequence[Seat],
    seed: str | int | None,
    dice_seed: str | None,
    stamp: datetime,
    active_at: datetime,
    statuses: tuple[str, str],
) -> str | None:
    """Record a new game (its events so far: not over) and put the table in play, if it is
    in the lobby (``statuses``: lobby and in play) with the seats ``expected``. Returns
    `STARTED`, `CHANGED` (nothing written) or None (no such table)."""
    events = [event_to_dict(e) for e in game.event_log]
    params = {
        "table": table_id, **_seats(expected), "game": game_id, "rules": game.rules.name,
        "edition": game.rules.edition.name,
        "seed": None if seed is None else str(seed),
        "dice": ENTERED if game.entered else ROLLED, "dice_seed": dice_seed, "active": ACTIVE,
        "players": array_text([s.name for s in seats]),
        "kinds": array_text([s.kind for s in seats]),
        "bots": array_text([s.bot.key if s.bot else None for s in seats]),
        "types": array_text([e["type"] for e in events]),
        "data": array_text([json.dumps(e, separators=(",", ":")) for e in events]),
        "stamp": stamp, "active_at": active_at, "lobby": statuses[0], "playing": statuses[1],
    }  # fmt: skip
    found = _call(engine, _START, params)
    return None if found is None else str(found)


def _seats(seats: Sequence[TableSeatRecord]) -> dict[str, str]:
    return {
        "seat": array_text([s.seat for s in seats]),
        "name": array_text([s.name for s in seats]),
        "bot": array_text([s.bot.key if s.bot else None for s in seats]),
        "token": array_text([s.token_hash for s in seats]),
    }


def _call(engine: Engine, statement: str, params: dict[str, Any]) -> Any:
    """The one value ``statement`` answers, run alone in autocommit."""
    with single_write(engine) as connection:
        return connection.exec_driver_sql(statement, params).scalar()
