"""Rematches and sittings: a finished table may name the table made as its rematch, and
every table belongs to a sitting (a table and the rematches that follow it). Each table
already recorded is a sitting of its own.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("sitting", sa.String(36), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(36), nullable=True))
    op.execute("UPDATE tables SET sitting = id WHERE sitting IS NULL")
    op.create_index("ix_tables_sitting", "tables", ["sitting"])
