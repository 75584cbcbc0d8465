"""Recorded games read back to be resumed: one, or a crowd at once (a server node taking
over a dead node's tables), in three statements whatever their number."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Row, select

from ..core import BotSpec, DiceSource, Game, committed_dice
from .engine import reading
from .schema import events, games, players, seats
from .values import MANY_AT_ONCE, Seat


@dataclass(frozen=True, slots=True)
class Resumable:
    """A recorded game as resuming it needs it (see `Store.resumable`)."""

    game: Game
    seats: list[Seat]
    hinted: frozenset[int]
    selection: tuple[int, tuple[bool, ...]] | None
    sitting: str
    """The sitting the game belongs to (see `GameSummary.sitting`)."""


def read_resumables(
    engine: Engine, game_ids: Sequence[str], dice: Callable[[], DiceSource | None]
) -> dict[str, Resumable]:
    """The games found of ``game_ids`` (at most `MANY_AT_ONCE`), by id, each replayed with
    ``dice()`` or, a game of committed dice, its own seed's dice, drawn as its start event
    says (each seat's own, or duplicate: its rolls stay checkable). The connection is let
    go before the replays."""
    ids = list(dict.fromkeys(game_ids))
    if len(ids) > MANY_AT_ONCE:
        raise ValueError(f"at most {MANY_AT_ONCE} games at once")
    if not ids:
        return {}
    logs: dict[str, list[dict[str, Any]]] = {}
    seat_rows: dict[str, list[Row[Any]]] = {}
    with reading(engine) as connection:
        for game_id, data in connection.execute(
            select(events.c.game_id, events.c.data)
            .where(events.c.game_id.in_(ids))
            .order_by(events.c.game_id, events.c.seq)
        ):
            logs.setdefault(game_id, []).append(json.loads(data))
        found = connection.execute(
            select(games.c.id, games.c.dice_seed, games.c.sitting, games.c.selection).where(
                games.c.id.in_(ids)
            )
        ).all()
        for row in connection.execute(
            select(seats.c.game_id, seats.c.seat, players.c.name, seats.c.bot)
            .add_columns(seats.c.hints_used)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.game_id.in_(ids))
            .order_by(seats.c.game_id, seats.c.seat)
        ):
            seat_rows.setdefault(row.game_id, []).append(row)
    result: dict[str, Resumable] = {}
    for game in found:
        log, rows = logs.get(game.id), seat_rows.get(game.id, [])
        if not log:
            continue
        result[game.id] = Resumable(
            Game.replay(log, committed_dice(game.dice_seed, log[0]) if game.dice_seed else dice()),
            [Seat(r.name, BotSpec.parse(r.bot) if r.bot else None) for r in rows],
            frozenset(int(r.seat) for r in rows if r.hints_used),
            parse_selection(game.selection),
            game.sitting or game.id,
        )
    return result


def parse_selection(text: object) -> tuple[int, tuple[bool, ...]] | None:
    """A saved selection (``"12:01100"``: the event count it belongs to, and the flags)."""
    if not isinstance(text, str) or ":" not in text:
        return None
    seq, _, flags = text.partition(":")
    if not seq.isdigit() or not flags or set(flags) - {"0", "1"}:
        return None
    return int(seq), tuple(flag == "1" for flag in flags)
