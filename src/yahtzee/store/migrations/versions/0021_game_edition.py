"""The edition of each game (issue 54): ``games.edition`` names the printed game whose
card it is played on (``american``: Yahtzee, thirteen boxes; ``yatzy``: Scandinavian
Yatzy, fifteen), so that statistics and exports read each card by its own boxes. Every
game recorded before is American.

On PostgreSQL a table's start (migration 0013's ``yahtzee_start_table``) records the
game's row itself: it takes the edition too (one more argument, after the rules).

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import importlib

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

_BEFORE = importlib.import_module("yahtzee.store.migrations.versions.0013_table_functions")
_OLD_SIGNATURE = _BEFORE.SIGNATURES[1]
NEW_SIGNATURE = _OLD_SIGNATURE.replace(
    "varchar, varchar, varchar, varchar, varchar, varchar[]",
    "varchar, varchar, varchar, varchar, varchar, varchar, varchar[]",
    1,
)


def _start_with_edition() -> str:
    """0013's start function, the edition taken after the rules and written with them."""
    replacements = (
        ("p_rules varchar, ", "p_rules varchar, p_edition varchar, "),
        ("INSERT INTO games (id, rules, ", "INSERT INTO games (id, rules, edition, "),
        ("VALUES (p_game, p_rules, ", "VALUES (p_game, p_rules, p_edition, "),
    )
    text = str(_BEFORE.START)
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


START = _start_with_edition()


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("edition", sa.String(16), nullable=False, server_default="american")
        )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {_OLD_SIGNATURE}")
        op.execute(START)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP FUNCTION IF EXISTS {NEW_SIGNATURE}")
        op.execute(_BEFORE.START)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("edition")
