"""Web Push: each account's push subscriptions (one row per browser's endpoint), the turns
notified (one row per table and turn, claimed by whichever node comes first: exactly one
sends), and the server's settings (the VAPID key, made once for every node).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(36), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.Text, nullable=False),
        sa.Column("auth", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_account", "push_subscriptions", ["account_id"])
    op.create_table(
        "push_sent",
        sa.Column("table_id", sa.String(36), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(36), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_sent_account", "push_sent", ["account_id"])
    op.create_table(
        "settings",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("settings")
    op.drop_index("ix_push_sent_account", table_name="push_sent")
    op.drop_table("push_sent")
    op.drop_index("ix_push_subscriptions_account", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
