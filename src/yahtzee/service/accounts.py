"""Accounts, optional: a guest plays as before; a player who signs up has a name of their
own across devices, and their seats belong to it.

An account signs in with a passkey (`service.passkeys`) or a password (the fallback where
passkeys cannot work: plain http on a LAN address), hashed with argon2id. Sign-in errors
never tell whether an account exists: an unknown name gets the same answer, after the same
work (a password checked against a dummy hash). Failed password sign-ins are slowed per
name and per address (`service.sign_in_limits`), never locked: the owner can always come
back after the delay, or at once with a passkey. A sign-in is a session: a random secret
(the browser's cookie) of which the records keep the SHA-256; it ends when its owner signs
out (here, or everywhere), or after `SESSION_IDLE_S` unused.

Recovery codes (there is no mail): `RECOVERY_CODES` random codes shown once, at sign-up
(and when made again), kept hashed; each signs in once, in place of the password.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..core import InvalidInput, YahtzeeError, player_name
from ..core.language import N_, _
from ..store import Store
from ..store import accounts as records
from ..store.names import look_alike_key
from .sign_in_limits import SignInLimits, SlowDown

SESSION_IDLE_S: Final = 60 * 24 * 60 * 60
"""A session unused this long has ended (its owner signs in again)."""
SEEN_EVERY_S: Final = 60 * 60
"""A session's last use is written at most this often (not on every request)."""
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 200
RECOVERY_CODES: Final = 10
RECOVERY_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
RECOVERY_LENGTH: Final = 10
"""Characters of a recovery code (50 bits: nothing to guess)."""
SECRET_BYTES: Final = 32
MAX_AGENT: Final = 200

BAD_CREDENTIALS: Final = N_("That name and password (or recovery code) do not match an account.")


class SignedOut(YahtzeeError):
    """No signed-in account (no session, or one that has ended)."""

    default_code = "signed_out"


class BadCredentials(YahtzeeError):
    """A sign-in that failed: the same for an unknown name as for a wrong password."""

    default_code = "bad_credentials"


@dataclass(frozen=True, slots=True)
class Account:
    """A signed-in player's account."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A new session: its account and the cookie's secret (given once, never recorded)."""

    account: Account
    secret: str


@dataclass(frozen=True, slots=True)
class SignedUp:
    """A new account's first session and its recovery codes (shown once)."""

    signed_in: SignedIn
    recovery_codes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Overview:
    """What the account page shows of an account."""

    account: records.AccountRecord
    passkeys: tuple[records.PasskeyRecord, ...]
    sessions: tuple[records.SessionRecord, ...]
    recovery_codes_left: int


def secret_hash(secret: str) -> str:
    """What the records keep of a session's secret or a recovery code."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _code_key(code: str) -> str:
    """A recovery code as typed: capitals or not, with or without its dash and spaces."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def new_recovery_codes() -> tuple[str, ...]:
    def one() -> str:
        text = "".join(secrets.choice(RECOVERY_ALPHABET) for _index in range(RECOVERY_LENGTH))
        half = RECOVERY_LENGTH // 2
        return f"{text[:half]}-{text[half:]}"

    return tuple(one() for _index in range(RECOVERY_CODES))


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise InvalidInput(
            _("A password has at least {least} characters.").format(least=MIN_PASSWORD),
            code="weak_password",
        )
    if len(password) > MAX_PASSWORD:
        raise InvalidInput(
            _("A password has at most {most} characters.").format(most=MAX_PASSWORD),
            code="weak_password",
        )
    return password


def name_taken() -> InvalidInput:
    return InvalidInput(
        _("That name is taken (or looks just like one that is): choose another."),
        code="name_taken",
    )


class Accounts:
    """Every account of the records (calls block on the records and on argon2: the web
    layer runs them in a worker thread)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        hasher: PasswordHasher | None = None,
        limits: SignInLimits | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.hasher = hasher or PasswordHasher()  # argon2id, RFC 9106's low-memory choice
        self.limits = limits or SignInLimits(store, clock)

    @cached_property
    def _dummy_hash(self) -> str:
        """What an unknown name's password is checked against (the same work)."""
        return self.hasher.hash(secrets.token_urlsafe(16))

    # Signing up and in -----------------------------------------------------------------

    def new_account(self, name: str) -> tuple[records.AccountRecord, str]:
        """A new account's record (not written) and its name's look-alike key."""
        clean = player_name(name)
        return (
            records.AccountRecord(str(uuid.uuid4()), clean, None, self.clock()),
            look_alike_key(clean),
        )

    def sign_up(self, name: str, password: str, agent: str | None = None) -> SignedUp:
        """A new account with a password, signed in (``name_taken`` when an account's name
        looks like this one)."""
        account, key = self.new_account(name)
        account = records.AccountRecord(
            account.id, account.name, self.hasher.hash(check_password(password)),
            account.created_at,
        )  # fmt: skip
        return self.record_new(account, key, agent)

    def record_new(
        self,
        account: records.AccountRecord,
        key: str,
        agent: str | None,
        passkey: records.PasskeyRecord | None = None,
    ) -> SignedUp:
        """Record a new account (with its first passkey) and sign it in."""
        codes = new_recovery_codes()
        hashes = [secret_hash(_code_key(c)) for c in codes]
        if not records.create_account(self.store, account, key, hashes, passkey):
            raise name_taken()
        return SignedUp(self.open_session(Account(account.id, account.name), agent), codes)

    def sign_in(
        self,
        name: str,
        address: str,
        *,
        password: str | None = None,
        recovery_code: str | None = None,
        agent: str | None = None,
    ) -> SignedIn:
        """Sign in with a password or a recovery code (spent). The same refusal
        (``bad_credentials``) and work for an unknown name; ``slow_down`` after too many
        failures, per name and per address, before any check."""
        key = look_alike_key(name.strip()[:MAX_PASSWORD]) if name.strip() else ""
        self.limits.check(key, address)
        found = records.account_by_key(self.store, key) if key else None
        if recovery_code is not None:
            ok = found is not None and records.use_recovery_code(
                self.store, found.id, secret_hash(_code_key(recovery_code))
            )
        else:
            ok = self._password_ok(found, password or "")
        if not ok or found is None:
            self.limits.failed(key, address)
            raise BadCredentials(_(BAD_CREDENTIALS))
        self.limits.succeeded(key)
        return self.open_session(Account(found.id, found.name), agent)

    def _password_ok(self, found: records.AccountRecord | None, password: str) -> bool:
        stored = found.password_hash if found is not None else None
        try:
            self.hasher.verify(stored or self._dummy_hash, password[:MAX_PASSWORD])
        except (VerificationError, InvalidHashError):
            return False
        if found is None or stored is None:
            return False
        if self.hasher.check_needs_rehash(stored):
            records.set_password(self.store, found.id, self.hasher.hash(password))
        return True

    # Sessions --------------------------------------------------------------------------

    def open_session(self, account: Account, agent: str | None) -> SignedIn:
        secret = secrets.token_urlsafe(SECRET_BYTES)
        now = self.clock()
        records.add_session(
            self.store,
            records.SessionRecord(
                secret_hash(secret), account.id, now, now, (agent or None) and agent[:MAX_AGENT]
            ),
        )
        return SignedIn(account, secret)

    def account_of(self, secret: str | None) -> Account | None:
        """The account whose session this secret is (None: none, or it has ended)."""
        if not secret:
            return None
        digest = secret_hash(secret)
        found = records.session_of(self.store, digest)
        if found is None:
            return None
        session, name = found
        now = self.clock()
        if now - session.seen_at >= SESSION_IDLE_S:
            records.end_session(self.store, digest)
            return None
        if now - session.seen_at >= SEEN_EVERY_S:
            records.touch_session(self.store, digest, now)
        return Account(session.account_id, name)

    def sign_out(self, secret: str) -> None:
        """This session ends."""
        records.end_session(self.store, secret_hash(secret))

    def sign_out_everywhere(self, account: Account) -> int:
        """Every session of the account ends (this one too). Returns how many."""
        return records.end_sessions(self.store, account.id)

    def sessions(self, account: Account) -> list[records.SessionRecord]:
        return records.sessions_of(self.store, account.id)

    # The account -----------------------------------------------------------------------

    def rename(self, account: Account, name: str) -> Account:
        clean = player_name(name)
        if not records.rename_account(self.store, account.id, clean, look_alike_key(clean)):
            raise name_taken()
        return Account(account.id, clean)

    def set_password(self, account: Account, password: str) -> None:
        records.set_password(self.store, account.id, self.hasher.hash(check_password(password)))

    def new_recovery_codes(self, account: Account) -> tuple[str, ...]:
        """New recovery codes (shown once): the earlier ones no longer work."""
        codes = new_recovery_codes()
        records.replace_recovery_codes(
            self.store, account.id, [secret_hash(_code_key(c)) for c in codes]
        )
        return codes

    def record(self, account: Account) -> records.AccountRecord:
        found = records.account_by_id(self.store, account.id)
        if found is None:
            raise SignedOut(_("This account no longer exists."))
        return found

    def overview(self, account: Account) -> Overview:
        return Overview(
            self.record(account),
            tuple(records.passkeys_of(self.store, account.id)),
            tuple(records.sessions_of(self.store, account.id)),
            records.recovery_codes_left(self.store, account.id),
        )

    def delete(self, account: Account) -> None:
        """The account goes with its sessions, passkeys and recovery codes; its games stay
        as they were played (its seats keep their names, no longer anyone's)."""
        records.delete_account(self.store, account.id)


__all__ = [
    "BAD_CREDENTIALS",
    "SESSION_IDLE_S",
    "Account",
    "Accounts",
    "BadCredentials",
    "Overview",
    "SignedIn",
    "SignedOut",
    "SignedUp",
    "SlowDown",
    "check_password",
    "name_taken",
    "new_recovery_codes",
    "secret_hash",
]
