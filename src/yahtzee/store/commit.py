"""The group commit of several games' new events as a compare-and-set: each game is
written only if its records still end where its new events began, and an intent recorded
before is answered, never written twice. A batch costs a handful of statements, however
many games it holds (one round trip each to the database, not one per game)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from ..core import DiceEntered, Game, Rolled, YahtzeeError
from ..core.events import event_to_dict
from ..core.language import _
from .records import card_rows
from .schema import cards, events, games, tables

SAVED = "saved"
CONFLICT = "conflict"
REPEAT = "repeat"
FINISHED = "finished"


class StoreError(YahtzeeError):
    """The records disagree with what was asked (a stale or unknown game)."""

    default_code = "store_error"


@dataclass(frozen=True, slots=True)
class Commit:
    """A game's new events for `Store.save_many`: those after its first ``base``
    (the events the records held when they were made), with the intent that made them."""

    game_id: str
    game: Game
    base: int
    intent: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `Store.save_many` did with one game: ``saved`` (``seq``: the events it
    now holds), ``repeat`` (the intent was written before; ``seq``: the end of that move)
    or ``conflict`` (another writer came first; ``seq``: the events the records hold)."""

    kind: str
    seq: int

    @property
    def saved(self) -> bool:
        """Whether the commit was written."""
        return self.kind == SAVED


def commit_many(
    connection: Connection, commits: Sequence[Commit], stamp: Any
) -> dict[str, Outcome]:
    """Decide and write every game of the batch in the caller's transaction."""
    ids = sorted({c.game_id for c in commits})  # rows locked in one order: no deadlocks
    stored = {
        r.id: int(r.event_count)
        for r in connection.execute(
            select(games.c.id, games.c.event_count)
            .where(games.c.id.in_(ids))
            .order_by(games.c.id)
            .with_for_update()
        )
    }
    outcomes, written = decide(commits, stored, _intents_recorded(connection, commits))
    _write(connection, written, stamp)
    return outcomes


def decide(
    commits: Sequence[Commit], stored: dict[str, int], earlier: dict[tuple[str, str], int]
) -> tuple[dict[str, Outcome], list[Commit]]:
    """Each game's outcome, from the events its records hold (``stored``, the rows
    locked) and the sequence numbers of the batch's intents recorded before; and the
    commits to write."""
    missing = sorted({c.game_id for c in commits} - stored.keys())
    if missing:
        raise StoreError(_("No game {game_id} in the records.").format(game_id=missing[0]))
    outcomes: dict[str, Outcome] = {}
    written: list[Commit] = []
    for commit in commits:
        found = earlier.get((commit.game_id, commit.intent)) if commit.intent else None
        if found is not None:
            outcomes[commit.game_id] = Outcome(REPEAT, found + 1)
        elif stored[commit.game_id] != commit.base or commit.base > len(commit.game.event_log):
            outcomes[commit.game_id] = Outcome(CONFLICT, stored[commit.game_id])
        else:
            outcomes[commit.game_id] = Outcome(SAVED, len(commit.game.event_log))
            written.append(commit)
    return outcomes, written


def _intents_recorded(
    connection: Connection, commits: Sequence[Commit]
) -> dict[tuple[str, str], int]:
    """The sequence numbers of the batch's intents already recorded."""
    wanted = {(c.game_id, c.intent) for c in commits if c.intent is not None}
    if not wanted:
        return {}
    rows = connection.execute(  # one cached statement whatever the batch (expanding INs)
        select(events.c.game_id, events.c.intent, events.c.seq).where(
            events.c.game_id.in_(sorted({g for g, _ in wanted})),
            events.c.intent.in_(sorted({str(i) for _, i in wanted})),
        )
    )
    return {(r.game_id, r.intent): int(r.seq) for r in rows if (r.game_id, r.intent) in wanted}


EventRow = tuple[str, int, str, str, str | None]
"""(game, seq, type, data, intent) of an event to write."""


def event_rows(written: Sequence[Commit]) -> list[EventRow]:
    """Every new event of the commits; the intent is kept beside the last of its move."""
    rows: list[EventRow] = []
    for commit in written:
        fresh = [event_to_dict(e) for e in commit.game.event_log[commit.base :]]  # new only
        rows.extend(
            (commit.game_id, commit.base + i, e["type"], json.dumps(e, separators=(",", ":")),
             commit.intent if i == len(fresh) - 1 else None)
            for i, e in enumerate(fresh)
        )  # fmt: skip
    return rows


def finished(written: Sequence[Commit]) -> list[Commit]:
    """The commits whose new events end their game."""
    return [c for c in written if c.game.is_over and c.base < len(c.game.event_log)]


def turns_passed(written: Sequence[Commit]) -> list[tuple[str, int]]:
    """(game, the seat to move now) of each commit whose new events may have passed the
    turn (any but a roll or dice entered: a placement, a take-back, a playoff throw), for
    its table's ``to_move`` ("my games" reads it). A game just over is left as it is: its
    table's end clears the column (`tables.set_table_status`)."""
    return [
        (c.game_id, c.game.current_player)
        for c in written
        if c.game.current_player is not None
        and not all(isinstance(e, Rolled | DiceEntered) for e in c.game.event_log[c.base :])
    ]


TO_MOVE = (
    update(tables)
    .where(tables.c.game_id == bindparam("b_game"))
    .values(to_move=bindparam("b_seat"))
)
"""The seat to move at a game's table (one row: a table plays one game)."""


def _write(connection: Connection, written: Sequence[Commit], stamp: Any) -> None:
    names = ("game_id", "seq", "type", "data", "intent")
    rows = [dict(zip(names, row, strict=True)) for row in event_rows(written)]
    if rows:
        connection.execute(insert(events).values(created_at=stamp), rows)
    if written:
        connection.execute(
            update(games)
            .where(games.c.id == bindparam("b_id"))
            .values(event_count=bindparam("b_count"), updated_at=stamp),
            [{"b_id": c.game_id, "b_count": len(c.game.event_log)} for c in written],
        )
    ended = finished(written)
    if ended:
        connection.execute(
            update(games)
            .where(games.c.id == bindparam("b_id"))
            .values(status=FINISHED, finished_at=stamp),
            [{"b_id": c.game_id} for c in ended],
        )
        connection.execute(insert(cards), [r for c in ended for r in card_rows(c.game_id, c.game)])
    passed = turns_passed(written)
    if passed:
        connection.execute(TO_MOVE, [{"b_game": g, "b_seat": s} for g, s in passed])
