"""Turn-by-turn tables: a table's rule for a move whose time ran out (a bot of a level
plays that turn; or the seat is out after so many missed turns in a row), the deadline of
the decision now (read by the sweep that applies the rule to tables nobody has loaded),
and each seat's missed turns in a row and whether it is out.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("timeout_rule", sa.String(8), nullable=False, server_default="bot")
        )
        batch.add_column(sa.Column("timeout_level", sa.Integer, nullable=False, server_default="3"))
        batch.add_column(
            sa.Column("timeout_missed", sa.Integer, nullable=False, server_default="3")
        )
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_tables_deadline", "tables", ["deadline"])
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("missed", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("out", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("out")
        batch.drop_column("missed")
    op.drop_index("ix_tables_deadline", "tables")
    with op.batch_alter_table("tables") as batch:
        for column in ("deadline", "timeout_missed", "timeout_level", "timeout_rule"):
            batch.drop_column(column)
