"""The group commit on PostgreSQL (see :mod:`.commit`): the same decisions, made on a
connection of its own, in two round trips to the server whatever the batch holds.

Its connection is taken from the engine's pool once and kept (no check-out, no ping per
commit). The first statement locks the batch's games in id order and reads how many events
each holds; the second, begun once the rows are locked (so that it sees what a writer that
held them committed), reads the batch's intents recorded before and writes the new events
and counts of every game whose records end where its events began, unless its intent was
among those. The parameters are arrays, so each statement is the same text every time
(prepared once by the server). A connection that breaks is dropped and the error raised,
as with the pool (the next batch takes a fresh one); a kept one found dead before anything
but the lock was sent is replaced at once and the batch tried on the new one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine

from .commit import FINISHED, Commit, Outcome, decide, event_rows, finished
from .records import card_rows

_LOCK = """
SELECT id, event_count FROM games WHERE id = ANY(%(ids)s::varchar[]) ORDER BY id FOR UPDATE
"""
# Run once the rows are locked, so that it sees what a writer that held them committed (a
# statement sees the records as they were when it began): the intents recorded before,
# and the new events of the games whose records end where they began, unless their
# intent is among those.
_WRITE = """
WITH earlier AS (
  SELECT e.game_id, e.seq FROM events AS e
  JOIN unnest(%(asked)s::varchar[], %(intents)s::varchar[]) AS a(game_id, intent)
    ON e.game_id = a.game_id AND e.intent = a.intent
),
written AS (
  INSERT INTO events (game_id, seq, type, data, created_at, intent)
  SELECT e.game_id, e.seq, e.type, e.data, %(stamp)s, e.intent
  FROM unnest(%(game)s::varchar[], %(seq)s::int[], %(type)s::varchar[], %(data)s::text[],
              %(intent)s::varchar[]) AS e(game_id, seq, type, data, intent)
  WHERE e.game_id NOT IN (SELECT game_id FROM earlier)
),
counted AS (
  UPDATE games SET event_count = c.n, updated_at = %(stamp)s
  FROM unnest(%(ids)s::varchar[], %(counts)s::int[]) AS c(id, n)
  WHERE games.id = c.id AND c.id NOT IN (SELECT game_id FROM earlier)
)
SELECT game_id, seq FROM earlier
"""
_FINISH = """
UPDATE games SET status = %(status)s, finished_at = %(stamp)s
WHERE id = ANY(%(ids)s::varchar[])
"""
_CARD_COLUMNS = ("game_id", "seat", "card", "total", "upper_subtotal", "yahtzee_box",
                 "yahtzee_bonus", "place", "winner", "decisions", "advisor_loss")  # fmt: skip
_CARD = (
    f"INSERT INTO cards ({', '.join(_CARD_COLUMNS)}) "
    f"VALUES ({', '.join(f'%({c})s' for c in _CARD_COLUMNS)})"
)


class DirectCommit:
    """Saves batches of games on one kept connection (one batch at a time)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._connection: Any = None  # the pool's connection, kept
        self._lock = threading.Lock()

    def save(self, commits: Sequence[Commit], stamp: Any) -> dict[str, Outcome]:
        with self._lock:
            while True:
                kept = self._connection is not None  # (the pool checks one that sat idle)
                if self._connection is None:
                    self._connection = self.engine.raw_connection()
                pooled = self._connection
                driver = pooled.driver_connection
                locked = False
                try:
                    with driver.transaction(), driver.cursor() as cursor:
                        stored = _lock(cursor, commits)
                        locked = True
                        return _write(cursor, commits, stored, stamp)
                except Exception:
                    if not (driver.closed or driver.broken):
                        raise
                    self._connection = None
                    pooled.invalidate()
                    if locked or not kept:  # it may have been written: the caller decides
                        raise
                    # the kept connection had died while idle (a database restart, say):
                    # nothing was sent but the lock, so once more on a fresh one

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()  # back to the pool, which is disposed next
                self._connection = None


def _lock(cursor: Any, commits: Sequence[Commit]) -> dict[str, int]:
    """The batch's games locked, and the events each holds."""
    ids = sorted({c.game_id for c in commits})  # rows locked in one order: no deadlocks
    cursor.execute(_LOCK, {"ids": ids})
    return {game_id: int(count) for game_id, count in cursor.fetchall()}


def _write(
    cursor: Any, commits: Sequence[Commit], stored: dict[str, int], stamp: Any
) -> dict[str, Outcome]:
    asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
    # written unless its intent was recorded before (the next statement decides that)
    _, fits = decide(commits, stored, {})
    earlier: dict[tuple[str, str], int] = {}
    if asked or fits:
        rows = event_rows(fits)
        game, seq, kind, data, intent = (
            (list(c) for c in zip(*rows, strict=True)) if rows else ([], [], [], [], [])
        )
        cursor.execute(_WRITE, {
            "asked": [g for g, _ in asked], "intents": [i for _, i in asked],
            "stamp": stamp, "game": game, "seq": seq, "type": kind, "data": data,
            "intent": intent, "ids": [c.game_id for c in fits],
            "counts": [len(c.game.event_log) for c in fits],
        })  # fmt: skip
        found = {game_id: int(seq) for game_id, seq in cursor.fetchall()}
        earlier = {(g, i): found[g] for g, i in asked if g in found}
    outcomes, written = decide(commits, stored, earlier)
    ended = finished(written)
    if ended:
        cursor.execute(
            _FINISH, {"status": FINISHED, "stamp": stamp, "ids": [c.game_id for c in ended]}
        )
        cursor.executemany(_CARD, [r for c in ended for r in card_rows(c.game_id, c.game)])
    return outcomes
