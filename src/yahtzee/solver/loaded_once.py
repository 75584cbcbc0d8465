"""What the process loads once and keeps (a rule set's solver, its curve tables): threads
asking for one key wait for one load of it, and the loads of other keys go on meanwhile.

One lock for every key made a slow load (a variant's table built in a fresh cache, a
minute on a busy machine) hold up every other: a server's official tables then waited
for a variant's build before their first bot move or hint.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LoadedOnce(Generic[K, V]):
    """Values by key, each loaded on first use by one thread while the others asking for
    it wait (a failed load is not kept: the next asker tries again)."""

    def __init__(self) -> None:
        self._loaded: dict[K, V] = {}
        self._loading: dict[K, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: K, load: Callable[[], V]) -> V:
        """The value of ``key``, loaded now (``load()``) if nobody has yet."""
        found = self._loaded.get(key)
        if found is None:
            with self._guard:
                lock = self._loading.setdefault(key, threading.Lock())
            with lock:
                found = self._loaded.get(key)
                if found is None:
                    found = self._loaded[key] = load()
        return found

    def __contains__(self, key: K) -> bool:
        """Whether ``key``'s value is loaded (`get` answers at once)."""
        return key in self._loaded
