"""My games: the seat to move now at each table (``tables.to_move``, NULL when none: in
the lobby, or once the game is over), written with every move that passes the turn, so
that a player's games are listed, theirs to move first, by one indexed query instead of
a replay of each game; and an index on a table's game (the group commit finds a game's
table by it).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
    op.create_index("ix_tables_game", "tables", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_game", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("to_move")
