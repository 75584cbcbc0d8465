"""Web Push in the records: the server's VAPID key, each account's push subscriptions and
the turns notified.

The VAPID key is a setting made once: the first node to need it inserts its own (an insert
that does nothing when the row is there) and every node then reads the one row, so all of
them sign with the same key and a browser's subscription works through any of them.

A subscription is keyed by its endpoint's SHA-256: a browser has one endpoint, so a second
account subscribing from the same browser takes it over (the page of whoever signed in
last is notified). An account keeps its `KEPT_PER_ACCOUNT` newest subscriptions.

A turn is claimed (`claim_turn`) by inserting its row, which does nothing when a node
claimed it already: the one whose insert wrote it notifies, once across nodes. A table
keeps its latest turn only (older rows go with each claim), which is also how the turns
waiting for an account are counted (`waiting_tables`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, exists, func, literal, select
from sqlalchemy.dialects import postgresql, sqlite

from .engine import reading, retrying, single_write
from .schema import push_sent, push_subscriptions, settings, tables
from .store import Store, now, utc
from .tables import PLAYING

VAPID_KEY_SETTING = "vapid_private_key"
KEPT_PER_ACCOUNT = 10
"""Subscriptions an account keeps (its newest: an older one is most likely a browser's
subscription it renewed since)."""


@dataclass(frozen=True, slots=True)
class PushSubscription:
    """A browser's push subscription, as recorded: where to post (``endpoint``) and the
    browser's keys (``p256dh``: its P-256 public point, ``auth``: its secret; both
    base64url); ``language``: the page's."""

    account_id: str
    endpoint: str
    p256dh: str
    auth: str
    created_at: datetime
    language: str = "en"
    """The code of the language of the page that subscribed: what its notifications say."""

    @property
    def endpoint_hash(self) -> str:
        return endpoint_hash(self.endpoint)


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _dialect(c: Connection) -> Any:
    return postgresql if c.dialect.name == "postgresql" else sqlite


def setting(store: Store, name: str, make: Callable[[], str]) -> str:
    """The setting ``name``, made by ``make`` if no node made it yet (every node reads the
    same one)."""

    def work() -> str:
        with store.engine.begin() as c:
            found = c.execute(select(settings.c.value).where(settings.c.name == name)).scalar()
            if found is None:
                insert = _dialect(c).insert(settings).values(name=name, value=make())
                c.execute(insert.on_conflict_do_nothing(index_elements=["name"]))
                found = c.execute(select(settings.c.value).where(settings.c.name == name)).scalar()
        return str(found)

    return retrying(work)


def add_subscription(store: Store, subscription: PushSubscription) -> None:
    """Record the subscription for its account (taking it over from another account that
    had the same endpoint); the account's oldest beyond `KEPT_PER_ACCOUNT` go."""
    values = {
        "endpoint_hash": subscription.endpoint_hash,
        "account_id": subscription.account_id,
        "endpoint": subscription.endpoint,
        "p256dh": subscription.p256dh,
        "auth": subscription.auth,
        "created_at": subscription.created_at,
        "language": subscription.language,
    }

    def work() -> None:
        with store.engine.begin() as c:
            insert = _dialect(c).insert(push_subscriptions).values(**values)
            c.execute(
                insert.on_conflict_do_update(
                    index_elements=["endpoint_hash"],
                    set_={k: v for k, v in values.items() if k != "endpoint_hash"},
                )
            )
            kept = (
                select(push_subscriptions.c.endpoint_hash)
                .where(push_subscriptions.c.account_id == subscription.account_id)
                .order_by(push_subscriptions.c.created_at.desc())
                .limit(KEPT_PER_ACCOUNT)
            )
            c.execute(
                delete(push_subscriptions).where(
                    push_subscriptions.c.account_id == subscription.account_id,
                    push_subscriptions.c.endpoint_hash.not_in(kept.scalar_subquery()),
                )
            )

    retrying(work)


def remove_subscription(store: Store, account_id: str, endpoint: str) -> bool:
    """Forget the account's subscription to ``endpoint``; whether it had one."""
    with single_write(store.engine) as c:
        gone = c.execute(
            delete(push_subscriptions).where(
                push_subscriptions.c.endpoint_hash == endpoint_hash(endpoint),
                push_subscriptions.c.account_id == account_id,
            )
        )
        return gone.rowcount > 0


def drop_subscription(store: Store, endpoint: str) -> None:
    """Forget a subscription the push service said is gone (whoever held it)."""
    with single_write(store.engine) as c:
        c.execute(
            delete(push_subscriptions).where(
                push_subscriptions.c.endpoint_hash == endpoint_hash(endpoint)
            )
        )


def subscriptions_of(store: Store, account_id: str) -> list[PushSubscription]:
    """The account's subscriptions, newest first."""
    with reading(store.engine) as c:
        rows = c.execute(
            select(push_subscriptions)
            .where(push_subscriptions.c.account_id == account_id)
            .order_by(push_subscriptions.c.created_at.desc())
        )
        return [
            PushSubscription(
                r.account_id, r.endpoint, r.p256dh, r.auth, utc(r.created_at), r.language
            )
            for r in rows
        ]


def claim_turn(store: Store, table_id: str, turn: int, account_id: str | None) -> bool:
    """Claim the table's turn for the account (None: a guest's seat): True for the one
    caller (of any node) whose insert wrote it; False when it was claimed already, or a
    later turn of the table was. The table's earlier turns are forgotten."""

    def work() -> bool:
        with store.engine.begin() as c:
            later = exists().where(push_sent.c.table_id == table_id, push_sent.c.turn >= turn)
            chosen = select(
                literal(table_id), literal(turn), literal(account_id), literal(now())
            ).where(~later)
            insert = (
                _dialect(c)
                .insert(push_sent)
                .from_select(["table_id", "turn", "account_id", "sent_at"], chosen)
                .on_conflict_do_nothing(index_elements=["table_id", "turn"])
                .returning(push_sent.c.turn)  # (psycopg counts no rows of an insert)
            )
            claimed = c.execute(insert).first() is not None
            if claimed:
                c.execute(
                    delete(push_sent).where(
                        push_sent.c.table_id == table_id, push_sent.c.turn < turn
                    )
                )
            return claimed

    return retrying(work)


def waiting_tables(store: Store, account_id: str) -> int:
    """The tables in play whose latest turn claimed is the account's: the games waiting
    for it."""
    with reading(store.engine) as c:
        count = c.execute(
            select(func.count())
            .select_from(push_sent.join(tables, tables.c.id == push_sent.c.table_id))
            .where(push_sent.c.account_id == account_id, tables.c.status == PLAYING)
        ).scalar()
    return int(count or 0)


__all__ = [
    "KEPT_PER_ACCOUNT",
    "VAPID_KEY_SETTING",
    "PushSubscription",
    "add_subscription",
    "claim_turn",
    "drop_subscription",
    "endpoint_hash",
    "remove_subscription",
    "setting",
    "subscriptions_of",
    "waiting_tables",
]
