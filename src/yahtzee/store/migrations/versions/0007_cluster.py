"""Several server nodes on one database: each event may carry the id of the intent that
made it ("seat:id"), unique per game, so that an intent sent again (to this node or to
another one) is answered, never applied twice.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("intent", sa.String(80), nullable=True))
    op.create_index("ix_events_intent", "events", ["game_id", "intent"], unique=True)
    op.create_index("ix_tables_owner_status", "tables", ["owner", "status"])
