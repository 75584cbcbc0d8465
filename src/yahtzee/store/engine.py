"""Database engines: SQLite in the user data folder by default, PostgreSQL by URL.

SQLite runs in WAL mode with foreign keys on, ``synchronous=NORMAL`` (a commit survives a
killed process; WAL keeps the file consistent) and every transaction begun with
``BEGIN IMMEDIATE`` so that concurrent writers queue on the busy timeout instead of
failing half-way. Transient lock or serialisation failures are retried.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError, OperationalError

from ..core import InvalidInput
from ..core.errors import show
from ..core.language import _

DATABASE_ENV = "YAHTZEE_DATABASE_URL"
DATA_DIR_ENV = "YAHTZEE_DATA_DIR"
BUSY_TIMEOUT_S = 60
RETRIES = 20
MAX_REASON = 160
"""The most characters of a driver's own words that a message about a database quotes."""

T = TypeVar("T")


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs  # noqa: PLC0415

    return Path(platformdirs.user_data_dir("yahtzee", appauthor=False))


def default_url() -> str:
    """``$YAHTZEE_DATABASE_URL``, else a SQLite file in the user data folder."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    return f"sqlite:///{data_dir() / 'yahtzee.db'}"  # the folder is made on the first write


def _parse(text: str) -> URL:
    try:
        return make_url(text)
    except (ArgumentError, ValueError):
        raise InvalidInput(
            _("{text} is not a database URL (sqlite:///FILE or postgresql://...).").format(
                text=show(text)
            )
        ) from None


def sqlite_path(url: str | None = None) -> Path | None:
    """The file a SQLite URL names (``None``: not SQLite, or a database in memory)."""
    parsed = _parse(url or default_url())
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    if parsed.database == ":memory:" or parsed.query.get("mode") == "memory":
        return None
    return Path(parsed.database).expanduser()


def database_exists(url: str | None = None) -> bool:
    """Whether opening ``url`` would find a database rather than make one: a SQLite file
    that is there (or one in memory), or any server database (a server makes no files).
    A SQLite file that could not be made there either is `InvalidInput` (see
    `check_location`): no records is not what a broken location holds."""
    path = sqlite_path(url)
    if path is None or path.exists():
        return True
    check_location(url)
    return False


def check_location(url: str | None = None) -> None:
    """`InvalidInput`, one line naming the file and the cause, where a SQLite database that
    is not there could not be made either: a folder on its path is a file, or the folder
    it goes in cannot be made or written (tried with a folder made and removed at once).
    A location that merely holds no database yet passes, and is left as it was."""
    path = sqlite_path(url)
    if path is None or path.exists():
        return
    there = next(folder for folder in path.parents if folder.exists())
    if not there.is_dir():
        raise InvalidInput(
            _(
                "Cannot keep the records at {path}: {there} is a file, not a folder "
                "(choose another place with --database-url or ${variable})."
            ).format(path=path, there=there, variable=DATABASE_ENV)
        )
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".yahtzee-", dir=there))
    except OSError as error:
        reason = error.strerror or str(error)
        raise InvalidInput(
            _(
                "Cannot keep the records at {path}: nothing can be made in {there} "
                "({reason}; choose another place with --database-url or ${variable})."
            ).format(path=path, there=there, reason=reason, variable=DATABASE_ENV)
        ) from None


def describe(url: str | None = None) -> str:
    """The database as a message names it: the SQLite file, or the URL without password."""
    text = url or default_url()
    path = sqlite_path(text)
    if path is not None:
        return str(path)
    return _parse(text).render_as_string(hide_password=True)


POOL_SIZE = 15
"""PostgreSQL connections a process keeps at most (opened when first needed, then kept: a
connection opened and closed for each burst costs a new server process every time)."""


def make_engine(url: str | None = None, *, read_only: bool = False) -> Engine:
    """An engine for ``url`` (the default database when ``None``); ``read_only``: a SQLite
    file that cannot be written (a read-only file system) is opened for reading only."""
    text = url or default_url()
    parsed = _parse(text)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        path = sqlite_path(text)
        return _read_only_engine(path) if read_only and path else _sqlite_engine(text)
    if backend == "postgresql":
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        try:
            engine = create_engine(
                parsed,
                pool_size=POOL_SIZE,
                max_overflow=0,  # no connection opened for a moment and closed again
                future=True,
            )
        except ImportError:
            raise InvalidInput(
                _("PostgreSQL needs its driver: pip install '.[postgres]' in the project's folder.")
            ) from None
        _ping_when_idle(engine)
        _plan_with_the_values(engine)
        return engine
    raise InvalidInput(
        _("Database {backend} is not supported: use SQLite or PostgreSQL.").format(
            backend=show(backend)
        )
    )


IDLE_PING_S = 5.0
"""A pooled PostgreSQL connection unused for longer is checked (a round trip) before it is
used again: one the server dropped meanwhile (a restart, an idle timeout) is replaced.
A busy server's connections come back within milliseconds and go without the check."""


def _ping_when_idle(engine: Engine) -> None:
    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since <= IDLE_PING_S:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise DisconnectionError from error  # the pool opens a new one instead
        if not alive:
            raise DisconnectionError


def _plan_with_the_values(engine: Engine) -> None:
    """Every statement planned for the values it runs with. The driver prepares a
    statement used five times on a connection, and PostgreSQL may then keep one plan for
    it; made while the tables were nearly empty (a new database), that plan scans whole
    tables once they have grown: the cluster benchmark's PostgreSQL went from 0.2 to 0.6
    cores in some runs. PostgreSQL before 12 has no such setting (it keeps its default)."""

    @event.listens_for(engine, "connect")
    def _connected(dbapi_connection: Any, _record: Any) -> None:
        try:
            dbapi_connection.execute("SET plan_cache_mode = force_custom_plan")
            dbapi_connection.commit()
        except Exception:
            dbapi_connection.rollback()


def _sqlite_engine(url: str) -> Engine:
    path = sqlite_path(url)
    if path is not None and not path.exists():
        check_location(url)
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_S * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def writable(path: Path) -> bool:
    """Whether a SQLite file (and its folder, for the journal) can be written here."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _read_only_engine(path: Path) -> Engine:
    """A SQLite file opened read-only: first as a shared database (``mode=ro``), and where
    even that needs a write (a WAL database's shared-memory file on a read-only file
    system), as an immutable one, which nothing can change there anyway."""
    where = path.resolve().as_uri()

    def connect() -> sqlite3.Connection:
        try:
            connection = sqlite3.connect(f"{where}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:
            connection = sqlite3.connect(f"{where}?immutable=1", uri=True)
        connection.isolation_level = None
        connection.execute("PRAGMA foreign_keys = ON")
        return connection

    return create_engine("sqlite://", creator=connect)


def cannot_open(url: str | None, error: DBAPIError) -> InvalidInput:
    """A database that would not open, as one line a player understands."""
    reason = " ".join(str(error.orig if error.orig is not None else error).split("\n")[0].split())
    where = describe(url)
    if "not a database" in reason:  # SQLite's words for a file that is something else
        return InvalidInput(
            _("{where} is not a yahtzee database (it is not a SQLite file).").format(where=where)
        )
    if len(reason) > MAX_REASON:
        reason = reason[: MAX_REASON - 3] + "..."
    if sqlite_path(url) is not None:
        return InvalidInput(
            _("Cannot open the database {where}: {reason}.").format(where=where, reason=reason)
        )
    return InvalidInput(
        _(
            "Cannot reach the database {where}: {reason}. Is the server running, and "
            "is the URL right?"
        ).format(where=where, reason=reason)
    )


def _transient(error: DBAPIError) -> bool:
    text = str(error.orig).lower() if error.orig is not None else str(error).lower()
    return any(
        marker in text
        for marker in ("database is locked", "database is busy", "deadlock", "could not serialize")
    )


def on_postgres(engine: Engine) -> bool:
    """Whether the records are on PostgreSQL (else SQLite)."""
    return engine.dialect.name == "postgresql"


def reading(engine: Engine) -> Connection:
    """A connection for reading: on PostgreSQL in autocommit, so that a read is its
    statements alone, without a BEGIN before and a ROLLBACK after (two round trips, and
    the driver's CPU for each). Under PostgreSQL's read committed, each statement sees
    what was committed before it began either way: the answers are the same. SQLite's
    reads keep their transaction (one file, one snapshot)."""
    connection = engine.connect()
    if on_postgres(engine):
        return connection.execution_options(isolation_level="AUTOCOMMIT")
    return connection


@contextlib.contextmanager
def single_write(engine: Engine) -> Iterator[Connection]:
    """A connection for a write of one statement (atomic by itself): on PostgreSQL in
    autocommit (one round trip, not three), on SQLite in its transaction, committed at
    the end."""
    if not on_postgres(engine):
        with engine.begin() as connection:
            yield connection
        return
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        yield connection


def retrying(work: Callable[[], T]) -> T:
    """Run ``work`` (a whole transaction), again after a transient lock failure, and once
    again on a fresh connection after the database dropped the one it had (a restart, an
    idle timeout: SQLAlchemy then says the connection was invalidated, and the pool lets
    it go). A transaction cut off that way was not committed, but for one cut off in its
    very commit: the compare-and-sets (`Store.save_many`) then answer a repeat or a
    conflict, and an insert of a new row refuses its duplicate."""
    reconnected = False
    for attempt in range(RETRIES):
        try:
            return work()
        except (OperationalError, DBAPIError) as error:
            if error.connection_invalidated and not reconnected:
                reconnected = True
                continue
            if not _transient(error) or attempt == RETRIES - 1:
                raise
            time.sleep(min(1.0, 0.01 * 2**attempt) * (0.5 + random.random()))
    raise AssertionError("unreachable")
