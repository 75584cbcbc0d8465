"""Finished cards for fast statistics, the hints mark, and indexes.

Existing finished games get their cards from their event logs.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("hints_used", sa.Boolean, nullable=False, server_default=sa.false())
    )
    cards = op.create_table(
        "cards",
        sa.Column("game_id", sa.String(36), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("card", sa.Text, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("upper_subtotal", sa.Integer, nullable=False),
        sa.Column("yahtzee_box", sa.Integer, nullable=True),
        sa.Column("yahtzee_bonus", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("winner", sa.Boolean, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=True),
        sa.Column("advisor_loss", sa.Float, nullable=True),
    )  # fmt: skip
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_rules_finished", "games", ["rules", "finished_at"])
    op.create_index("ix_seats_player", "seats", ["player_id"])
    op.create_index("ix_cards_total", "cards", ["total"])

    from yahtzee.core import Game  # noqa: PLC0415 - the event log is replayed as it stands
    from yahtzee.store.records import card_rows  # noqa: PLC0415

    bind = op.get_bind()
    finished = bind.execute(sa.text("SELECT id FROM games WHERE status = 'finished'")).all()
    for (game_id,) in finished:
        rows = bind.execute(
            sa.text("SELECT data FROM events WHERE game_id = :g ORDER BY seq"), {"g": game_id}
        ).all()
        game = Game.replay(json.loads(data) for (data,) in rows)
        op.bulk_insert(cards, card_rows(game_id, game))
