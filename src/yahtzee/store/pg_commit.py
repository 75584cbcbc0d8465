"""The group commit on PostgreSQL (see `commit`): the same decisions, made on a
connection of its own, in one round trip to the server whatever the batch holds.

Its connection is taken from the engine's pool once and kept (no check-out, no ping per
commit), in autocommit: the batch is one call of the function ``yahtzee_group_commit``
(migration 0008), which is its own transaction. The function locks the batch's games in id
order and reads how many events each holds; then (each of its statements sees what was
committed before it began, so also what a writer that held the rows wrote) it reads the
batch's intents recorded before, and writes the new events, counts, finished games and
their cards of every game whose records end where its events began, unless its intent was
among those. It answers, per game, the events its records held and the sequence number of
an intent recorded before, from which `commit.decide` gives each game's outcome as
on SQLite. The parameters are arrays, so the statement is the same text every time; each is
sent as the text of a PostgreSQL array (`array_text`), which the server parses: the driver's own
array dumping, element by element in Python, cost more than the rest of a commit together.

A connection that breaks is dropped and the error raised (the next batch takes a fresh
one), except that a kept one is tried once more on a fresh connection: had the first try
been written after all, the second finds its intents recorded (a repeat) or its records
moved on (a conflict), and writes nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine

from .commit import FINISHED, Commit, Outcome, decide, event_rows, finished
from .records import card_rows

_CALL = """
SELECT o_game, o_stored, o_earlier FROM yahtzee_group_commit(
    %(lock)s::varchar[], %(ids)s::varchar[], %(bases)s::int[], %(counts)s::int[],
    %(ended)s::varchar[], %(cards)s::json, %(asked)s::varchar[], %(intents)s::varchar[],
    %(game)s::varchar[], %(seq)s::int[], %(type)s::varchar[], %(data)s::text[],
    %(intent)s::varchar[], %(stamp)s, %(finished)s)
"""


class DirectCommit:
    """Saves batches of games on one kept connection (one batch at a time)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._connection: Any = None  # the pool's connection, kept
        self._lock = threading.Lock()

    def save(self, commits: Sequence[Commit], stamp: Any) -> dict[str, Outcome]:
        asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
        params = _parameters(commits, asked, stamp)
        with self._lock:
            while True:
                kept = self._connection is not None
                if self._connection is None:
                    self._connection = self.engine.raw_connection()
                    self._connection.driver_connection.autocommit = True
                pooled = self._connection
                driver = pooled.driver_connection
                try:
                    with driver.cursor() as cursor:
                        cursor.execute(_CALL, params)
                        answered = cursor.fetchall()
                    break
                except Exception:
                    if not (driver.closed or driver.broken):
                        raise
                    self._connection = None
                    pooled.invalidate()
                    if not kept:
                        raise
                    # the kept connection had died while idle (a database restart, say):
                    # once more on a fresh one (see above: nothing is written twice)
        return _outcomes(commits, asked, answered)

    def close(self) -> None:
        with self._lock:
            pooled, self._connection = self._connection, None
            if pooled is None:
                return
            driver = pooled.driver_connection
            if driver.closed or driver.broken:
                pooled.invalidate()
            else:
                driver.autocommit = False  # as the pool lent it
                pooled.close()  # back to the pool, which is disposed next


class LoopCommit:
    """The same batches on a connection that the caller's event loop drives (psycopg's
    ``AsyncConnection``): no worker thread, no hand-over between threads per batch. One
    connection per event loop (a new loop opens its own); a kept one that broke is
    replaced once, as in `DirectCommit`."""

    def __init__(self, engine: Engine) -> None:
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        self._connection: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = asyncio.Lock()

    async def save(self, commits: Sequence[Commit], stamp: Any) -> dict[str, Outcome]:
        asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
        params = _parameters(commits, asked, stamp)
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a connection (and a lock) belong to one loop
            self.close()
            self._loop, self._lock = loop, asyncio.Lock()
        async with self._lock:
            while True:
                kept = self._connection is not None
                if self._connection is None:
                    self._connection = await _connect(self._conninfo)
                connection = self._connection
                try:
                    cursor = await connection.execute(_CALL, params)
                    answered = await cursor.fetchall()
                    break
                except Exception:
                    if not (connection.closed or connection.broken):
                        raise
                    self.close()
                    if not kept:
                        raise
        return _outcomes(commits, asked, answered)

    def close(self) -> None:
        """Close the connection (at once: its loop may be gone)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.pgconn.finish()


async def _connect(conninfo: str) -> Any:
    import psycopg  # noqa: PLC0415 (the postgres extra)

    connection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
    # as the engine's connections (see engine._plan_with_the_values); not before 12
    with contextlib.suppress(psycopg.Error):
        await connection.execute("SET plan_cache_mode = force_custom_plan")
    return connection


def _outcomes(
    commits: Sequence[Commit], asked: Sequence[tuple[str, str]], answered: Sequence[Any]
) -> dict[str, Outcome]:
    """Each game's outcome from the function's answer (see `commit.decide`)."""
    stored = {str(game): int(n) for game, n, _ in answered}
    found = {str(game): int(seq) for game, _, seq in answered if seq is not None}
    earlier = {(g, i): found[g] for g, i in asked if g in found}
    return decide(commits, stored, earlier)[0]


def _parameters(
    commits: Sequence[Commit], asked: Sequence[tuple[str, str]], stamp: Any
) -> dict[str, Any]:
    """The function's arguments: every game locked; the intents ``asked`` about; the events
    of the games that may fit (the function writes those whose records end where they
    began)."""
    fitting = [c for c in commits if c.base <= len(c.game.event_log)]
    rows = event_rows(fitting)
    game, seq, kind, data, intent = (
        (list(c) for c in zip(*rows, strict=True)) if rows else ([], [], [], [], [])
    )
    ended = finished(fitting)
    cards = [r for c in ended for r in card_rows(c.game_id, c.game)]
    arrays: dict[str, Sequence[str | int | None]] = {
        "lock": sorted({c.game_id for c in commits}), "ids": [c.game_id for c in fitting],
        "bases": [c.base for c in fitting], "counts": [len(c.game.event_log) for c in fitting],
        "ended": [c.game_id for c in ended], "asked": [g for g, _ in asked],
        "intents": [i for _, i in asked], "game": game, "seq": seq, "type": kind, "data": data,
        "intent": intent,
    }  # fmt: skip
    return {name: array_text(values) for name, values in arrays.items()} | {
        "cards": json.dumps(cards), "stamp": stamp, "finished": FINISHED,
    }  # fmt: skip


def array_text(values: Sequence[str | int | None]) -> str:
    """The text of a PostgreSQL array of ``values``: numbers as they are, None as NULL,
    every string quoted (so also "NULL", "" and any comma, brace or space survive), with
    its backslashes and double quotes escaped."""
    return "{" + ",".join(
        "NULL" if v is None
        else str(v) if isinstance(v, int)
        else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        for v in values
    ) + "}"  # fmt: skip
