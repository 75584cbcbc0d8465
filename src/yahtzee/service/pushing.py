"""A server's Web Push, opened once: its VAPID key, the accounts' subscriptions and the
notifier the rooms tell of turns (`open_pushing`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import Store
from .notifier import Notifier
from .presence import Presence
from .push import PushSubscriptions, VapidKey, vapid_key, vapid_subject
from .push_address import allow_local_from_env


@dataclass(frozen=True, slots=True)
class Pushing:
    key: VapidKey
    subscriptions: PushSubscriptions
    notifier: Notifier


def open_pushing(store: Store, presence: Presence, *, allow_local: bool | None = None) -> Pushing:
    """The server's Web Push on ``store`` (blocking: it may make the VAPID key).
    ``allow_local`` (tests only; default: `push_address.ALLOW_LOCAL_ENV`): subscriptions
    may point at loopback."""
    local = allow_local_from_env() if allow_local is None else allow_local
    key = vapid_key(store)
    subscriptions = PushSubscriptions(store, allow_local=local)
    notifier = Notifier(store, presence, key, subscriptions, subject=vapid_subject())
    return Pushing(key, subscriptions, notifier)


__all__ = ["Pushing", "open_pushing"]
