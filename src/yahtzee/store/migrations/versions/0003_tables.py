"""Online tables: seats, invite and spectator links, for the web server.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("hints_allowed", sa.Boolean, nullable=False),
        sa.Column("turn_timer", sa.Integer, nullable=True),
        sa.Column("invite_token", sa.String(64), nullable=False, unique=True),
        sa.Column("spectator_token", sa.String(64), nullable=False, unique=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.String(36), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )  # fmt: skip
    op.create_index("ix_tables_status", "tables", ["status"])
