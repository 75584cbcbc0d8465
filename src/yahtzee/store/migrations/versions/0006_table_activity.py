"""When a table last changed: a lobby that never starts expires after a while idle, and a
table just finished is served again (read-only) after a restart.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
