"""The group commit on PostgreSQL (see :mod:`.commit`): the same decisions, made on a
connection of its own, in one round trip to the server whatever the batch holds.

Its connection is taken from the engine's pool once and kept (no check-out per commit;
checked first only after :data:`~.engine.IDLE_PING_S` unused, as the pool does). A batch
is sent at once (pipeline mode): the transaction's start, a statement that locks the
batch's games in id order, one that decides and writes, and the commit. The second
begins once the rows are locked, so it sees what a writer that held them committed (a
statement sees the records as they were when it began): it reads the intents recorded
before, writes the new events of every game whose records end where its events began
(unless its intent was among those), moves each count on, closes the games that ended
with their cards, and returns what it found, from which the outcomes are decided as on
SQLite. Parameters are arrays, so each statement is the same text every time (prepared
once by the server). A connection that breaks is dropped and the error raised, as with
the pool: the next batch takes a fresh one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine

from . import engine as engines
from .commit import FINISHED, Commit, Outcome, decide, event_rows, finished
from .records import card_rows

_LOCK = """
SELECT id FROM games WHERE id = ANY(%(ids)s::varchar[]) ORDER BY id FOR UPDATE
"""
_WRITE = """
WITH batch AS (
  SELECT * FROM unnest(%(ids)s::varchar[], %(bases)s::int[], %(counts)s::int[],
                       %(over)s::bool[]) AS b(id, base, n, over)
),
earlier AS (
  SELECT e.game_id, e.seq FROM events AS e
  JOIN unnest(%(asked)s::varchar[], %(intents)s::varchar[]) AS a(game_id, intent)
    ON e.game_id = a.game_id AND e.intent = a.intent
),
fits AS (
  SELECT b.id, b.n, b.over FROM batch AS b JOIN games AS g ON g.id = b.id
  WHERE g.event_count = b.base AND b.id NOT IN (SELECT game_id FROM earlier)
),
written AS (
  INSERT INTO events (game_id, seq, type, data, created_at, intent)
  SELECT e.game_id, e.seq, e.type, e.data, %(stamp)s, e.intent
  FROM unnest(%(game)s::varchar[], %(seq)s::int[], %(type)s::varchar[], %(data)s::text[],
              %(intent)s::varchar[]) AS e(game_id, seq, type, data, intent)
  WHERE e.game_id IN (SELECT id FROM fits)
),
counted AS (
  UPDATE games SET event_count = fits.n, updated_at = %(stamp)s,
    status = CASE WHEN fits.over THEN %(finished)s ELSE games.status END,
    finished_at = CASE WHEN fits.over THEN %(stamp)s ELSE games.finished_at END
  FROM fits WHERE games.id = fits.id
),
carded AS (
  INSERT INTO cards (game_id, seat, card, total, upper_subtotal, yahtzee_box, yahtzee_bonus,
                     place, winner)
  SELECT * FROM unnest(%(c_game)s::varchar[], %(c_seat)s::int[], %(c_card)s::text[],
                       %(c_total)s::int[], %(c_upper)s::int[], %(c_box)s::int[],
                       %(c_bonus)s::int[], %(c_place)s::int[], %(c_winner)s::bool[])
    AS c(game_id, seat, card, total, upper_subtotal, yahtzee_box, yahtzee_bonus, place, winner)
  WHERE c.game_id IN (SELECT id FROM fits)
)
SELECT g.id, g.event_count, x.seq FROM games AS g LEFT JOIN earlier AS x ON x.game_id = g.id
WHERE g.id = ANY(%(ids)s::varchar[])
"""
_CARD_COLUMNS = ("game_id", "seat", "card", "total", "upper_subtotal", "yahtzee_box",
                 "yahtzee_bonus", "place", "winner")  # fmt: skip
_CARD_PARAMETERS = ("c_game", "c_seat", "c_card", "c_total", "c_upper", "c_box", "c_bonus",
                    "c_place", "c_winner")  # fmt: skip


class DirectCommit:
    """Saves batches of games on one kept connection (one batch at a time)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._connection: Any = None  # the pool's connection, kept
        self._used_at = 0.0
        self._lock = threading.Lock()

    def save(self, commits: Sequence[Commit], stamp: Any) -> dict[str, Outcome]:
        with self._lock:
            pooled = self._take()
            driver = pooled.driver_connection
            try:
                with driver.cursor() as locking, driver.cursor() as cursor:
                    with driver.pipeline(), driver.transaction():
                        locking.execute(_LOCK, {"ids": sorted({c.game_id for c in commits})})
                        cursor.execute(_WRITE, _parameters(commits, stamp))
                    rows = cursor.fetchall()
            except Exception:
                if driver.closed or driver.broken:
                    self._connection = None
                    pooled.invalidate()
                raise
            self._used_at = time.monotonic()
        stored = {game_id: int(count) for game_id, count, _ in rows}
        earlier = {
            (c.game_id, c.intent): int(seq)
            for c in commits
            for game_id, _, seq in rows
            if c.intent is not None and game_id == c.game_id and seq is not None
        }
        return decide(commits, stored, earlier)[0]

    def _take(self) -> Any:
        """The kept connection; after a while unused, checked first (one the server
        dropped meanwhile, at a restart say, is replaced)."""
        pooled = self._connection
        if pooled is not None and time.monotonic() - self._used_at > engines.IDLE_PING_S:
            driver = pooled.driver_connection
            try:
                driver.execute("SELECT 1")
                driver.rollback()
            except Exception:
                pooled.invalidate()
                pooled = self._connection = None
        if pooled is None:
            pooled = self._connection = self.engine.raw_connection()
        return pooled

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()  # back to the pool, which is disposed next
                self._connection = None


def _parameters(commits: Sequence[Commit], stamp: Any) -> dict[str, Any]:
    # a commit that does not follow on from its base cannot be written (base -1: no fit)
    fit = [c for c in commits if c.base <= len(c.game.event_log)]
    fitting = {c.game_id for c in fit}
    events = event_rows(fit)
    columns = [list(c) for c in zip(*events, strict=True)] or [[], [], [], [], []]
    game, seq, kind, data, intent = columns
    ending = finished(fit)
    cards = [r for c in ending for r in card_rows(c.game_id, c.game)]
    over = {c.game_id for c in ending}
    asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
    return {
        "ids": [c.game_id for c in commits],
        "bases": [c.base if c.game_id in fitting else -1 for c in commits],
        "counts": [len(c.game.event_log) for c in commits],
        "over": [c.game_id in over for c in commits],
        "asked": [g for g, _ in asked], "intents": [i for _, i in asked],
        "stamp": stamp, "finished": FINISHED,
        "game": game, "seq": seq, "type": kind, "data": data, "intent": intent,
        **{p: [r[c] for r in cards] for p, c in zip(_CARD_PARAMETERS, _CARD_COLUMNS, strict=True)},
    }  # fmt: skip
