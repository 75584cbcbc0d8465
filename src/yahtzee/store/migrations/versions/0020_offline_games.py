"""Offline games: a game played on a device without the server and uploaded once it was
over (issue 53) is kept as played, marked ``games.offline`` (its dice were rolled where
nobody can check them: never on a leaderboard, a high-score table or a best score other
players see); ``offline_games`` remembers which upload made it (the account and the id the
device gave the game), so that the same upload again keeps nothing new.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("offline", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "offline_games",
        sa.Column(
            "account_id",
            sa.String(36),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("client_id", sa.String(36), nullable=False),
        sa.Column(
            "game_id",
            sa.String(36),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "client_id"),
    )


def downgrade() -> None:
    op.drop_table("offline_games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("offline")
