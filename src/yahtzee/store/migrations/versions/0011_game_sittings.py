"""Sittings and dice in the game records: every game names its sitting (the games played
one after the other by the same players: a table and its rematches, or a terminal game and
its next games) and where its dice came from (``rolled`` by the program, or ``entered`` by
players rolling real dice). A game recorded earlier was rolled; a table's game joins its
table's sitting, and any other game is a sitting of its own. A table says the same of its
games' dice.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("sitting", sa.String(36), nullable=True))
        batch.add_column(sa.Column("dice", sa.String(8), nullable=False, server_default="rolled"))
    op.execute(
        "UPDATE games SET sitting = (SELECT COALESCE(tables.sitting, tables.id) FROM tables"
        " WHERE tables.game_id = games.id)"
    )
    op.execute("UPDATE games SET sitting = id WHERE sitting IS NULL")
    op.create_index("ix_games_sitting", "games", ["sitting", "created_at"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("dice", sa.String(8), nullable=False, server_default="rolled"))
