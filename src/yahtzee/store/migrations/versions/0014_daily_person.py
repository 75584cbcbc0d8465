"""The daily attempt is per person: each daily result keeps its player's look-alike key
(the Unicode confusables skeleton of the name after NFKC and case folding), unique per
day, so that ``Vera1``, ``VERA1`` and ``Vera1`` with a fullwidth V (U+FF36) have one
attempt between them.

A row recorded earlier takes the key of its name. Where a day has several rows of one
person under different spellings, the first finished one (else the first begun) takes the
key, and the others keep theirs NULL: their results stay on the day's leaderboard, but
none of them is an attempt anyone's name finds any more (a unique index lets NULLs be).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from yahtzee.store.names import look_alike_key

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_ROWS = sa.text(
    "SELECT r.game_id, r.day, p.name FROM daily_results AS r"
    " JOIN players AS p ON p.id = r.player_id"
    " ORDER BY r.day, r.score IS NULL, r.started_at, r.game_id"
)
_SET = sa.text("UPDATE daily_results SET player_key = :key WHERE game_id = :game")


def upgrade() -> None:
    with op.batch_alter_table("daily_results") as batch:
        batch.add_column(sa.Column("player_key", sa.Text, nullable=True))
    bind = op.get_bind()
    keyed: set[tuple[str, str]] = set()
    updates = []
    for game_id, day, name in bind.execute(_ROWS):
        person = (day, look_alike_key(name))
        if person not in keyed:
            keyed.add(person)
            updates.append({"key": person[1], "game": game_id})
    if updates:
        bind.execute(_SET, updates)
    op.create_index("ix_daily_results_person", "daily_results", ["day", "player_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_daily_results_person", table_name="daily_results")
    with op.batch_alter_table("daily_results") as batch:
        batch.drop_column("player_key")
