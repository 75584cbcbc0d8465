"""The group commit on PostgreSQL from the event loop (a server's): the same decision as
`commit.commit_many`, made by the server in one call of the function
``yahtzee_group_commit`` (migrations 0008 and 0015) on a connection the loop drives
(asyncpg), one round trip whatever the batch holds.

The function locks the batch's games in id order and reads how many events each holds
(it writes nothing if one of them is not in the records); then (each of its statements
sees what was committed before it began, so also what a writer that held the rows wrote)
it reads the batch's intents recorded before, and writes the new events, counts, finished
games and their cards of every game whose records end where its events began, unless its
intent was among those. It answers, per game, the events its records held and the
sequence number of an intent recorded before, from which `commit.decide` gives each
game's outcome as on SQLite. tests/store/test_sql_decisions.py holds the function to
`commit.commit_many` (the Python decision, which `Store.save_many` runs), case by case.

The parameters are arrays, so the statement is the same text every time; each is sent as
the text of a PostgreSQL array (`array_text`), which the server parses: a driver's own
array dumping, element by element in Python, cost more than the rest of a commit together.
The call pays for itself by its measurements (docs/benchmarks/cluster.md): one round trip
instead of four, a node's CPU per commit 859 -> 456 us (the function), and the driver's
CPU per commit 154 -> 110 us on asyncpg against psycopg's async connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import logging
import shlex
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from sqlalchemy import URL, Engine

from .commit import FINISHED, Commit, Outcome, decide, event_rows, finished, turns_passed
from .records import card_rows

log = logging.getLogger(__name__)


class LoopCommit:
    """The same batches on a connection that the caller's event loop drives (asyncpg): no
    worker thread, no hand-over between threads per batch, and the connection's socket
    stays with the loop between batches (psycopg's async connection registered it with the
    loop and took it off again at each wait: eight of a commit's eleven system calls). One
    connection per event loop (a new loop opens its own); a kept one that broke (a
    database restart) is replaced and the batch tried once more on the new one: had the
    first try been written after all, the second finds its intents recorded (a repeat) or
    its records moved on (a conflict), and writes nothing twice."""

    def __init__(self, engine: Engine) -> None:
        self._dsn, self._options = connect_arguments(engine.url)
        self._connection: Any = None
        self._statement: Any = None  # the call, prepared on the kept connection
        self._keeper: AsyncGenerator[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = asyncio.Lock()

    @staticmethod
    def usable() -> bool:
        """Whether asyncpg is installed (the postgres and cluster extras bring it)."""
        return importlib.util.find_spec("asyncpg") is not None

    async def save(self, commits: Sequence[Commit], stamp: Any) -> dict[str, Outcome]:
        asked = [(c.game_id, c.intent) for c in commits if c.intent is not None]
        params = _parameters(commits, asked, stamp)
        values = [params[name] for name in _ARGUMENTS]
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a connection (and a lock) belong to one loop
            self.close()
            self._loop, self._lock = loop, asyncio.Lock()
        async with self._lock:
            while True:
                kept = self._connection is not None
                if self._connection is None:
                    self._connection = await _connect(self._dsn, self._options)
                    self._keeper = _closed_with_the_loop(self._connection)
                    await anext(self._keeper)
                    self._statement = await self._connection.prepare(_LOOP_CALL)
                connection = self._connection
                try:
                    answered = await self._statement.fetch(*values)
                    break
                except Exception as error:
                    if not (connection.is_closed() or _broken(error)):
                        raise
                    self.close()
                    if not kept:
                        raise
            outcomes = _outcomes(commits, asked, answered)
            await self._turns(connection, [c for c in commits if outcomes[c.game_id].saved])
        return outcomes

    @staticmethod
    async def _turns(connection: Any, saved: Sequence[Commit]) -> None:
        """The seat to move at the tables of the saved games whose turn passed (one
        statement for the batch, after the call: a table's ``to_move`` is what "my games"
        reads; should it fail, the moves stand and the next passing turn writes it)."""
        passed = turns_passed(saved)
        if not passed:
            return
        try:
            await connection.execute(
                _TO_MOVE, array_text([g for g, _ in passed]), array_text([s for _, s in passed])
            )
        except Exception:
            log.warning("the seat to move at %d tables went unrecorded", len(passed), exc_info=True)

    def close(self) -> None:
        """Close the connection at once (one whose loop has ended was closed with it)."""
        connection, self._connection, self._statement = self._connection, None, None
        self._keeper = None
        if connection is not None and not connection.is_closed():
            with contextlib.suppress(RuntimeError):  # its loop closed without closing it
                connection.terminate()


async def _closed_with_the_loop(connection: Any) -> AsyncGenerator[None]:
    """Held while the connection is kept: the event loop closes its async generators as it
    shuts down (``asyncio.run``, uvicorn), and this one closes the connection then, while
    the loop still runs (an asyncpg connection cannot be closed without its loop)."""
    try:
        yield
    finally:
        if not connection.is_closed():
            connection.terminate()


_ARGUMENTS = (
    "lock", "ids", "bases", "counts", "ended", "cards", "asked", "intents",
    "game", "seq", "type", "data", "intent", "stamp", "finished",
)  # fmt: skip
_LOOP_CALL = """
SELECT o_game, o_stored, o_earlier FROM yahtzee_group_commit(
    $1::text::varchar[], $2::text::varchar[], $3::text::int[], $4::text::int[],
    $5::text::varchar[], $6::text::json, $7::text::varchar[], $8::text::varchar[],
    $9::text::varchar[], $10::text::int[], $11::text::varchar[], $12::text::text[],
    $13::text::varchar[], $14::timestamptz, $15::text)
"""
"""The function's call, each array sent as its text (`array_text`)."""
_TO_MOVE = """
UPDATE tables SET to_move = c.seat
FROM unnest($1::text::varchar[], $2::text::int[]) AS c(game, seat)
WHERE tables.game_id = c.game
"""
"""Each game's table's seat to move (`commit.turns_passed`), the arrays as their text."""


def connect_arguments(url: URL) -> tuple[str, dict[str, Any]]:
    """asyncpg's arguments for the engine's URL: its DSN, and the two libpq settings
    asyncpg does not read from one (it would send them to the server as settings, which
    refuses them): ``connect_timeout`` (seconds) and ``options`` (``-c name=value``)."""
    query = {k: v if isinstance(v, str) else v[-1] for k, v in url.query.items()}
    options: dict[str, Any] = {}
    timeout = query.pop("connect_timeout", None)
    if timeout is not None:
        options["timeout"] = float(timeout)
    settings: dict[str, str] = {}
    words = iter(shlex.split(query.pop("options", "")))
    for word in words:
        pair = next(words, "") if word == "-c" else word.removeprefix("-c")
        name, _, value = pair.partition("=")
        if name and value:
            settings[name.replace("-", "_")] = value
    if settings:
        options["server_settings"] = settings
    dsn = url.set(drivername="postgresql", query=query)
    return dsn.render_as_string(hide_password=False), options


async def _connect(dsn: str, options: dict[str, Any]) -> Any:
    import asyncpg  # noqa: PLC0415 (the postgres extra)

    connection = await asyncpg.connect(dsn, **options)
    # as the engine's connections (see engine._plan_with_the_values); not before 12
    with contextlib.suppress(asyncpg.PostgresError):
        await connection.execute("SET plan_cache_mode = force_custom_plan")
    return connection


def _broken(error: Exception) -> bool:
    """Whether ``error`` says the connection is gone (the server stopped it, or its socket
    broke), rather than that the call failed on a working one."""
    import asyncpg  # noqa: PLC0415

    gone = (
        OSError,
        asyncpg.InterfaceError,
        asyncpg.exceptions.PostgresConnectionError,
        asyncpg.exceptions.OperatorInterventionError,
    )
    return isinstance(error, gone)


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
