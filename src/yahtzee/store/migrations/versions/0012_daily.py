"""The daily game in the records: each day's secret seed (its commitment published ahead,
the seed itself shown only once the day is over) and each player's one result a day,
unique per player and day, so that a second attempt is refused on every server node; and
each game's secret seed of duplicate dice (none for a game recorded earlier).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice_seed", sa.String(64), nullable=True))
    op.create_table(
        "daily_seeds",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("best", sa.Integer, nullable=True),
    )
    op.create_table(
        "daily_results",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("loss", sa.Float, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )  # fmt: skip
