"""Bring a database to the current schema, safely when many processes start at once.

Alembic is imported only where it is needed: records already at the revision wanted
(`HEAD`, kept equal to the scripts' head by a test) are told without it (`_recorded`), and
every process that opens a store (each command, each server) is spared importing it and
mako (about 0.3 s).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from ..core import InvalidInput
from ..core.language import _
from .engine import cannot_open

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"
HEAD = "0022"
"""The newest migration's revision (the head of ``migrations/versions``)."""
_LOCK_KEY = 7_312_950_211  # PostgreSQL advisory lock taken while migrating


def alembic_config(connection: Connection) -> Config:
    from alembic.config import Config  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    from alembic.script import ScriptDirectory  # noqa: PLC0415

    script = ScriptDirectory(str(MIGRATIONS))
    found = script.get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext  # noqa: PLC0415

    return MigrationContext.configure(connection).get_current_revision()


def _recorded(connection: Connection) -> str | None:
    """The revision the records are at where that is plain (one row in alembic's version
    table), read without alembic; else ``None`` (ask alembic)."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    rows = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def check_current(engine: Engine) -> None:
    """Refuse records that are not of this version's schema (read-only: none is migrated)."""
    try:
        with engine.connect() as connection:
            if _recorded(connection) == HEAD:
                return
            found = current(connection)
    except DBAPIError as error:
        raise cannot_open(engine.url.render_as_string(hide_password=False), error) from None
    if found != HEAD:
        raise InvalidInput(
            _(
                "These records are of another version of yahtzee and cannot be written here "
                "to upgrade them: open them once where they can be written."
            )
        )


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade under a lock: SQLite's ``BEGIN IMMEDIATE`` or a PostgreSQL advisory lock.

    The first process migrates; the others wait, then find the schema current.
    """
    try:
        with engine.connect() as connection:
            target = HEAD if revision == "head" else revision
            if _recorded(connection) == target:
                return
            found = current(connection)
            if found == target:
                return
            tables = inspect(connection).get_table_names() if found is None else []
    except DBAPIError as error:  # not a database, no server there, ...
        raise cannot_open(engine.url.render_as_string(hide_password=False), error) from None
    if tables and engine.dialect.name == "sqlite":  # someone else's file: leave it as it is
        raise InvalidInput(
            _("{database} is not a yahtzee database (it holds other tables).").format(
                database=engine.url.database
            )
        )
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # a table rebuilt by a migration must not cascade deletes
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
        try:
            with connection.begin():
                if not sqlite:
                    connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
                if current(connection) != target:
                    from alembic import command  # noqa: PLC0415

                    command.upgrade(alembic_config(connection), target)
                if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
                    raise RuntimeError("the migration left rows that break foreign keys")
        finally:
            if sqlite:
                connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]
