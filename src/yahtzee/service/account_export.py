"""An account's data, all of it, as one JSON document (the account page's download): the
account, its sessions and passkeys (never a secret: no session secret, no key material
but the public key's id), how many recovery codes are left, its seats at tables, and its
games in full (as ``yahtzee export`` writes them: each with its event log)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from ..store import accounts as records
from ..store.transfer import export_games
from .accounts import Account, Accounts

FORMAT: Final = "yahtzee-account"
VERSION: Final = 1


def _when(stamp: float | None) -> str | None:
    return None if stamp is None else datetime.fromtimestamp(stamp, UTC).isoformat()


def account_data(accounts: Accounts, account: Account) -> dict[str, Any]:
    """Everything the records hold of the account (blocks on the records)."""
    seen = accounts.overview(account)
    store = accounts.store
    return {
        "format": FORMAT,
        "version": VERSION,
        "account": {
            "id": seen.account.id,
            "name": seen.account.name,
            "created_at": _when(seen.account.created_at),
            "password": seen.account.password_hash is not None,
        },
        "sessions": [
            {"created_at": _when(s.created_at), "seen_at": _when(s.seen_at), "agent": s.agent}
            for s in seen.sessions
        ],
        "passkeys": [
            {
                "id": k.credential_id,
                "label": k.label,
                "created_at": _when(k.created_at),
                "used_at": _when(k.used_at),
            }
            for k in seen.passkeys
        ],
        "recovery_codes_left": seen.recovery_codes_left,
        "seats": [
            {
                "table": s.table_id,
                "seat": s.seat,
                "name": s.name,
                "status": s.status,
                "game": s.game_id,
                "created_at": _when(s.created_at),
            }
            for s in records.seats_of(store, account.id)
        ],
        "games": export_games(store, records.games_of(store, account.id)),
    }


__all__ = ["FORMAT", "VERSION", "account_data"]
