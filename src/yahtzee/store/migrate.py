"""Bring a database to the current schema, safely when many processes start at once."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError

from ..core import InvalidInput
from .engine import cannot_open

MIGRATIONS = Path(__file__).parent / "migrations"
_LOCK_KEY = 7_312_950_211  # PostgreSQL advisory lock taken while migrating


def alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    script = ScriptDirectory(str(MIGRATIONS))
    found = script.get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def check_current(engine: Engine) -> None:
    """Refuse records that are not of this version's schema (read-only: none is migrated)."""
    try:
        with engine.connect() as connection:
            found = current(connection)
    except DBAPIError as error:
        raise cannot_open(engine.url.render_as_string(hide_password=False), error) from None
    if found != head():
        raise InvalidInput(
            "These records are of another version of yahtzee and cannot be written here "
            "to upgrade them: open them once where they can be written."
        )


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Upgrade under a lock: SQLite's ``BEGIN IMMEDIATE`` or a PostgreSQL advisory lock.

    The first process migrates; the others wait, then find the schema current.
    """
    target = head() if revision == "head" else revision
    try:
        with engine.connect() as connection:
            found = current(connection)
            if found == target:
                return
            tables = inspect(connection).get_table_names() if found is None else []
    except DBAPIError as error:  # not a database, no server there, ...
        raise cannot_open(engine.url.render_as_string(hide_password=False), error) from None
    if tables and engine.dialect.name == "sqlite":  # someone else's file: leave it as it is
        raise InvalidInput(
            f"{engine.url.database} is not a yahtzee database (it holds other tables)."
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
                    command.upgrade(alembic_config(connection), target)
                if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
                    raise RuntimeError("the migration left rows that break foreign keys")
        finally:
            if sqlite:
                connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]
