"""Failed sign-ins slow the next ones, per name and per address, without locking anyone
out: after `FREE_PER_NAME` failures in a row under a name (`FREE_PER_ADDRESS` from one
address: many people may share it), each next try waits twice as long as the last since
the last failure, up to `MAX_DELAY_S`; a success clears the name's count (not the
address's: signing in to one's own account does not buy guesses at others), and a count
whose last failure is `FORGET_S` old starts again. Only passwords and recovery codes are
slowed: a passkey sign-in never is, so the owner of a name someone is guessing at signs
in at once with a passkey, or with the password after at most `MAX_DELAY_S`.

The name is counted by its look-alike key whether or not an account has it (the answer
tells nothing about its existence); the counts are in the records, shared by every node.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Final

from ..core import YahtzeeError
from ..core.language import _
from ..store import Store
from ..store import accounts as records

FREE_PER_NAME: Final = 5
FREE_PER_ADDRESS: Final = 20
FIRST_DELAY_S: Final = 2.0
MAX_DELAY_S: Final = 15 * 60
FORGET_S: Final = 24 * 60 * 60


class SlowDown(YahtzeeError):
    """Too many failed sign-ins lately: the next try must wait ``retry_after`` seconds."""

    default_code = "slow_down"

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            _(
                "Too many failed sign-ins: wait {seconds} s and try again, or sign in "
                "with a passkey."
            ).format(seconds=retry_after)
        )
        self.retry_after = retry_after


def delay(failures: int, free: int) -> float:
    """How long after the last of ``failures`` failures in a row the next try waits."""
    if failures < free:
        return 0.0
    return min(MAX_DELAY_S, FIRST_DELAY_S * 2.0 ** (failures - free))


class SignInLimits:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    @staticmethod
    def _keys(name_key: str, address: str) -> tuple[str, str]:
        digest = hashlib.sha256(name_key.encode()).hexdigest()[:40]
        return f"name:{digest}", f"address:{address[:100]}"

    def check(self, name_key: str, address: str) -> None:
        """``SlowDown`` when a failure under this name or from this address is too recent."""
        by_name, by_address = self._keys(name_key, address)
        found = records.failures(self.store, (by_name, by_address))
        now = self.clock()
        wait = 0.0
        for key, free in ((by_name, FREE_PER_NAME), (by_address, FREE_PER_ADDRESS)):
            if key in found:
                failures, last = found[key]
                wait = max(wait, last + delay(failures, free) - now)
        if wait > 0:
            raise SlowDown(max(1, math.ceil(wait)))

    def failed(self, name_key: str, address: str) -> None:
        now = self.clock()
        records.add_failure(self.store, self._keys(name_key, address), now, now - FORGET_S)

    def succeeded(self, name_key: str) -> None:
        records.clear_failures(self.store, self._keys(name_key, "")[:1])


__all__ = ["FREE_PER_ADDRESS", "FREE_PER_NAME", "MAX_DELAY_S", "SignInLimits", "SlowDown", "delay"]
