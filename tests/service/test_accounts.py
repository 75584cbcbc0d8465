"""The accounts service on SQLite, by an injected clock: failed sign-ins slow the next ones
per name and per address (growing, bounded, never a lock), an unknown name costs the same
password check as a known one, and a session ends after its idle time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from yahtzee.service.accounts import SESSION_IDLE_S, Accounts, BadCredentials
from yahtzee.service.sign_in_limits import (
    FREE_PER_ADDRESS,
    FREE_PER_NAME,
    MAX_DELAY_S,
    SlowDown,
    delay,
)
from yahtzee.store import Store

PASSWORD = "correct horse battery"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class CountingHasher(PasswordHasher):
    """argon2id at its smallest cost, counting the checks it makes."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=64, parallelism=1)
        self.checks = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.checks += 1
        return super().verify(hash, password)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(tmp_path: Path, clock: Clock) -> Iterator[Accounts]:
    with Store(f"sqlite:///{tmp_path / 'records.db'}") as store:
        yield Accounts(store, clock=clock, hasher=CountingHasher())


def fail(accounts: Accounts, name: str = "Ann", address: str = "10.0.0.1") -> None:
    with pytest.raises(BadCredentials):
        accounts.sign_in(name, address, password="not the password")


def test_the_delay_grows_and_is_bounded() -> None:
    assert [delay(n, 5) for n in range(4, 9)] == [0.0, 2.0, 4.0, 8.0, 16.0]
    assert delay(100, 5) == MAX_DELAY_S


def test_failures_under_a_name_slow_it_until_the_delay_passes(
    accounts: Accounts, clock: Clock
) -> None:
    accounts.sign_up("Ann", PASSWORD)
    for _ in range(FREE_PER_NAME):
        fail(accounts)
    with pytest.raises(SlowDown) as slowed:
        accounts.sign_in("ANN", "10.0.0.2", password=PASSWORD)  # another address: the name
    assert slowed.value.retry_after == 2
    clock.now += 2
    assert accounts.sign_in("Ann", "10.0.0.2", password=PASSWORD).account.name == "Ann"
    fail(accounts)  # the success cleared the name's count: no wait after one failure
    assert accounts.sign_in("Ann", "10.0.0.2", password=PASSWORD)


def test_an_unknown_name_is_slowed_and_checked_alike(accounts: Accounts) -> None:
    hasher = accounts.hasher
    assert isinstance(hasher, CountingHasher)
    for _ in range(FREE_PER_NAME):
        fail(accounts, "Nobody")
    assert hasher.checks == FREE_PER_NAME  # a dummy hash checked each time
    with pytest.raises(SlowDown):
        accounts.sign_in("Nobody", "10.0.0.1", password=PASSWORD)
    assert hasher.checks == FREE_PER_NAME  # a slowed try checks nothing


def test_an_address_guessing_many_names_is_slowed(accounts: Accounts, clock: Clock) -> None:
    accounts.sign_up("Ann", PASSWORD)
    for n in range(FREE_PER_ADDRESS):
        clock.now += 60  # (a slow guesser: no name's own count is reached either)
        fail(accounts, f"Name{n}", "10.9.9.9")
    with pytest.raises(SlowDown):
        accounts.sign_in("Ann", "10.9.9.9", password=PASSWORD)
    assert accounts.sign_in("Ann", "10.0.0.1", password=PASSWORD)  # the owner elsewhere


def test_a_session_ends_after_its_idle_time(accounts: Accounts, clock: Clock) -> None:
    signed = accounts.sign_up("Ann", PASSWORD).signed_in
    clock.now += SESSION_IDLE_S - 10
    assert accounts.account_of(signed.secret) == signed.account  # seen: its idle time anew
    clock.now += SESSION_IDLE_S - 10
    assert accounts.account_of(signed.secret) == signed.account
    clock.now += SESSION_IDLE_S
    assert accounts.account_of(signed.secret) is None
    assert accounts.sessions(signed.account) == []
