"""Accounts (optional: guests play as before): an account's name (told apart by its
look-alike key), its password's argon2id hash (or none: passkeys only), its sign-in
sessions (the cookie's secret kept as a SHA-256), its passkeys (WebAuthn credentials),
its recovery codes (hashed, single use), the WebAuthn challenges under way (short-lived,
single use), and the failed sign-ins that slow the next ones. A seat of a table and a
seat of a game may belong to an account (NULL: a guest's). Nothing recorded before
changes.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _account(nullable: bool = False) -> sa.Column[str]:
    return sa.Column(
        "account_id", sa.String(36), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=nullable,
    )  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.Text, nullable=False, unique=True),
        sa.Column("password_hash", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        _account(),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("agent", sa.String(200), nullable=True),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        _account(),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=True),
        sa.Column("label", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "recovery_codes",
        _account(),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "code_hash"),
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(36), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_webauthn_challenges_expires", "webauthn_challenges", ["expires_at"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("table_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(36), nullable=True))
    op.create_index("ix_table_seats_account", "table_seats", ["account_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(36), nullable=True))
    op.create_index("ix_seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_table_seats_account", table_name="table_seats")
    with op.batch_alter_table("table_seats") as batch:
        batch.drop_column("account_id")
    for name in (
        "sign_in_failures", "webauthn_challenges", "recovery_codes", "passkeys",
        "account_sessions", "accounts",
    ):  # fmt: skip
        op.drop_table(name)
