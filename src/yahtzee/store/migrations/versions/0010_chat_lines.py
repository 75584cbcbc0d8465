"""A table's chat in the records: each line with its place in the table's chat, its seat,
the name shown and when it was said (the last lines of each table are kept). Nothing
recorded before changes: a table recorded earlier starts with no chat.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("table_id", sa.String(36), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )  # fmt: skip
