"""Accounts in the records (migration 0016): every SQL statement of accounts, their
sign-in sessions, passkeys, recovery codes, the WebAuthn challenges under way and the
failed sign-ins that slow the next ones; and which seats (of tables and of games) belong
to an account.

Secrets are never recorded: a session's cookie secret and a recovery code are kept as
their SHA-256 (both are random and long: nothing to guess), a password as its argon2id
hash (made by the service). Times are Unix times in and out (stored with their zone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, Executable, and_, case, delete, exists, insert, select, update
from sqlalchemy.exc import IntegrityError

from .engine import reading, retrying, single_write
from .schema import (
    account_sessions,
    accounts,
    games,
    passkeys,
    push_sent,
    push_subscriptions,
    recovery_codes,
    seats,
    sign_in_failures,
    table_seats,
    tables,
    webauthn_challenges,
)
from .store import Store


def _at(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


def _stamp(value: datetime) -> float:
    """Unix time of a stored time (SQLite gives it back without its zone: UTC)."""
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).timestamp()


@dataclass(frozen=True, slots=True)
class AccountRecord:
    id: str
    name: str
    password_hash: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class SessionRecord:
    id_hash: str
    account_id: str
    created_at: float
    seen_at: float
    agent: str | None


@dataclass(frozen=True, slots=True)
class PasskeyRecord:
    credential_id: str  # base64url
    account_id: str
    public_key: str  # base64url (COSE)
    sign_count: int
    transports: str | None
    label: str
    created_at: float
    used_at: float | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    challenge: str  # base64url
    purpose: str
    account_id: str | None


@dataclass(frozen=True, slots=True)
class AccountSeat:
    """A table's seat of the account, for its export."""

    table_id: str
    seat: int
    name: str | None
    status: str
    game_id: str | None
    created_at: float


def _account(row: object) -> AccountRecord:
    return AccountRecord(
        row.id,  # type: ignore[attr-defined]
        row.name,  # type: ignore[attr-defined]
        row.password_hash,  # type: ignore[attr-defined]
        _stamp(row.created_at),  # type: ignore[attr-defined]
    )


def _run(store: Store, statement: Executable) -> int:
    """One statement in a transaction of its own (retried where the database asks): the
    rows it changed."""

    def work() -> int:
        with single_write(store.engine) as c:
            return int(c.execute(statement).rowcount)

    return retrying(work)


# Accounts ------------------------------------------------------------------------------


def create_account(
    store: Store,
    account: AccountRecord,
    name_key: str,
    recovery_hashes: Sequence[str],
    passkey: PasskeyRecord | None = None,
) -> bool:
    """Record a new account with its recovery codes (and its first passkey), unless an
    account's name has the same look-alike key. Returns whether it was recorded."""

    def work() -> bool:
        try:
            with store.engine.begin() as c:
                taken = c.execute(
                    select(accounts.c.id).where(accounts.c.name_key == name_key)
                ).first()
                if taken is not None:
                    return False
                c.execute(
                    insert(accounts).values(
                        id=account.id, name=account.name, name_key=name_key,
                        password_hash=account.password_hash, created_at=_at(account.created_at),
                    )
                )  # fmt: skip
                _insert_codes(c, account.id, recovery_hashes)
                if passkey is not None:
                    c.execute(insert(passkeys).values(**_passkey_row(passkey)))
                return True
        except IntegrityError:  # the same name at the same moment, through another node
            return False

    return retrying(work)


def account_by_key(store: Store, name_key: str) -> AccountRecord | None:
    """The account whose name has this look-alike key."""
    with reading(store.engine) as c:
        row = c.execute(select(accounts).where(accounts.c.name_key == name_key)).first()
    return None if row is None else _account(row)


def account_by_id(store: Store, account_id: str) -> AccountRecord | None:
    with reading(store.engine) as c:
        row = c.execute(select(accounts).where(accounts.c.id == account_id)).first()
    return None if row is None else _account(row)


def rename_account(store: Store, account_id: str, name: str, name_key: str) -> bool:
    """A new name, unless another account's looks like it. Returns whether it was set."""

    def work() -> bool:
        try:
            with store.engine.begin() as c:
                other = c.execute(
                    select(accounts.c.id).where(
                        accounts.c.name_key == name_key, accounts.c.id != account_id
                    )
                ).first()
                if other is not None:
                    return False
                c.execute(
                    update(accounts)
                    .where(accounts.c.id == account_id)
                    .values(name=name, name_key=name_key)
                )
                return True
        except IntegrityError:
            return False

    return retrying(work)


def set_password(store: Store, account_id: str, password_hash: str | None) -> None:
    _run(
        store,
        update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash),
    )


def delete_account(store: Store, account_id: str) -> bool:
    """The account goes, with its sessions, passkeys, recovery codes and push
    subscriptions; its
    seats at tables and in games stay as they were played, under their names, no
    longer anyone's. Returns whether there was such an account."""

    def work() -> bool:
        with store.engine.begin() as c:
            c.execute(
                update(table_seats)
                .where(table_seats.c.account_id == account_id)
                .values(account_id=None)
            )
            c.execute(update(seats).where(seats.c.account_id == account_id).values(account_id=None))
            mine = (account_sessions, passkeys, recovery_codes, push_subscriptions, push_sent)
            for table in mine:  # (no cascade needed)
                c.execute(delete(table).where(table.c.account_id == account_id))
            return bool(c.execute(delete(accounts).where(accounts.c.id == account_id)).rowcount)

    return retrying(work)


# Sessions ------------------------------------------------------------------------------


def add_session(store: Store, session: SessionRecord) -> None:
    row = {
        "id_hash": session.id_hash, "account_id": session.account_id,
        "created_at": _at(session.created_at), "seen_at": _at(session.seen_at),
        "agent": session.agent,
    }  # fmt: skip
    _run(store, insert(account_sessions).values(**row))


_SESSION = select(account_sessions, accounts.c.name).join(
    accounts, accounts.c.id == account_sessions.c.account_id
)


def session_of(store: Store, id_hash: str) -> tuple[SessionRecord, str] | None:
    """A session and its account's name, by the hash of its secret."""
    with reading(store.engine) as c:
        row = c.execute(_SESSION.where(account_sessions.c.id_hash == id_hash)).first()
    return None if row is None else (_session(row), str(row.name))


def _session(row: object) -> SessionRecord:
    return SessionRecord(
        row.id_hash,  # type: ignore[attr-defined]
        row.account_id,  # type: ignore[attr-defined]
        _stamp(row.created_at),  # type: ignore[attr-defined]
        _stamp(row.seen_at),  # type: ignore[attr-defined]
        row.agent,  # type: ignore[attr-defined]
    )


def sessions_of(store: Store, account_id: str) -> list[SessionRecord]:
    """An account's sessions, the last seen first."""
    query = (
        select(account_sessions)
        .where(account_sessions.c.account_id == account_id)
        .order_by(account_sessions.c.seen_at.desc())
    )
    with reading(store.engine) as c:
        return [_session(r) for r in c.execute(query)]


def touch_session(store: Store, id_hash: str, seen_at: float) -> None:
    _run(
        store,
        update(account_sessions)
        .where(account_sessions.c.id_hash == id_hash)
        .values(seen_at=_at(seen_at)),
    )


def end_session(store: Store, id_hash: str, account_id: str | None = None) -> bool:
    """A session ends (with ``account_id``: only one of that account's). Returns whether
    there was one."""
    query = delete(account_sessions).where(account_sessions.c.id_hash == id_hash)
    if account_id is not None:
        query = query.where(account_sessions.c.account_id == account_id)
    return bool(_run(store, query))


def end_sessions(store: Store, account_id: str, idle_before: float | None = None) -> int:
    """Every session of an account ends (with ``idle_before``: those not seen since)."""
    query = delete(account_sessions).where(account_sessions.c.account_id == account_id)
    if idle_before is not None:
        query = query.where(account_sessions.c.seen_at < _at(idle_before))
    return _run(store, query)


# Passkeys ------------------------------------------------------------------------------


def _passkey_row(key: PasskeyRecord) -> dict[str, object]:
    return {
        "credential_id": key.credential_id, "account_id": key.account_id,
        "public_key": key.public_key, "sign_count": key.sign_count,
        "transports": key.transports, "label": key.label,
        "created_at": _at(key.created_at),
        "used_at": None if key.used_at is None else _at(key.used_at),
    }  # fmt: skip


def _passkey(row: object) -> PasskeyRecord:
    used = row.used_at  # type: ignore[attr-defined]
    return PasskeyRecord(
        row.credential_id,  # type: ignore[attr-defined]
        row.account_id,  # type: ignore[attr-defined]
        row.public_key,  # type: ignore[attr-defined]
        int(row.sign_count),  # type: ignore[attr-defined]
        row.transports,  # type: ignore[attr-defined]
        row.label,  # type: ignore[attr-defined]
        _stamp(row.created_at),  # type: ignore[attr-defined]
        None if used is None else _stamp(used),
    )


def add_passkey(store: Store, key: PasskeyRecord) -> bool:
    """Record a passkey; False if that credential is recorded already."""

    def work() -> bool:
        try:
            with single_write(store.engine) as c:
                c.execute(insert(passkeys).values(**_passkey_row(key)))
                return True
        except IntegrityError:
            return False

    return retrying(work)


def passkey(store: Store, credential_id: str) -> PasskeyRecord | None:
    with reading(store.engine) as c:
        row = c.execute(select(passkeys).where(passkeys.c.credential_id == credential_id)).first()
    return None if row is None else _passkey(row)


def passkeys_of(store: Store, account_id: str) -> list[PasskeyRecord]:
    query = (
        select(passkeys)
        .where(passkeys.c.account_id == account_id)
        .order_by(passkeys.c.created_at, passkeys.c.credential_id)
    )
    with reading(store.engine) as c:
        return [_passkey(r) for r in c.execute(query)]


def passkey_used(store: Store, credential_id: str, sign_count: int, used_at: float) -> None:
    _run(
        store,
        update(passkeys)
        .where(passkeys.c.credential_id == credential_id)
        .values(sign_count=sign_count, used_at=_at(used_at)),
    )


def remove_passkey(store: Store, account_id: str, credential_id: str) -> bool:
    query = delete(passkeys).where(
        passkeys.c.account_id == account_id, passkeys.c.credential_id == credential_id
    )
    return bool(_run(store, query))


# Recovery codes ------------------------------------------------------------------------


def _insert_codes(c: Connection, account_id: str, hashes: Sequence[str]) -> None:
    if hashes:
        c.execute(
            insert(recovery_codes), [{"account_id": account_id, "code_hash": h} for h in hashes]
        )


def replace_recovery_codes(store: Store, account_id: str, hashes: Sequence[str]) -> None:
    """An account's recovery codes are these from now on (the earlier ones no longer
    work)."""

    def work() -> None:
        with store.engine.begin() as c:
            c.execute(delete(recovery_codes).where(recovery_codes.c.account_id == account_id))
            _insert_codes(c, account_id, hashes)

    retrying(work)


def use_recovery_code(store: Store, account_id: str, code_hash: str) -> bool:
    """Spend one of an account's recovery codes: True once, then never again."""
    query = delete(recovery_codes).where(
        recovery_codes.c.account_id == account_id, recovery_codes.c.code_hash == code_hash
    )
    return bool(_run(store, query))


def recovery_codes_left(store: Store, account_id: str) -> int:
    query = select(recovery_codes.c.code_hash).where(recovery_codes.c.account_id == account_id)
    with reading(store.engine) as c:
        return len(c.execute(query).all())


# WebAuthn challenges -------------------------------------------------------------------


def put_challenge(
    store: Store, key: str, challenge: Challenge, expires_at: float, now: float
) -> None:
    """Keep a ceremony's challenge until ``expires_at`` (those expired by ``now`` go)."""

    def work() -> None:
        with store.engine.begin() as c:
            expired = webauthn_challenges.c.expires_at < _at(now)
            c.execute(delete(webauthn_challenges).where(expired))
            c.execute(
                insert(webauthn_challenges).values(
                    id=key, challenge=challenge.challenge, purpose=challenge.purpose,
                    account_id=challenge.account_id, expires_at=_at(expires_at),
                )
            )  # fmt: skip

    retrying(work)


def take_challenge(store: Store, key: str, now: float) -> Challenge | None:
    """A ceremony's challenge, once (it is gone from then on); None if there is none or it
    expired. Of two asking at once, one gets it."""

    def work() -> Challenge | None:
        with store.engine.begin() as c:
            row = c.execute(
                select(webauthn_challenges).where(webauthn_challenges.c.id == key)
            ).first()
            if row is None:
                return None
            gone = c.execute(
                delete(webauthn_challenges).where(webauthn_challenges.c.id == key)
            ).rowcount
            if not gone or _stamp(row.expires_at) < now:
                return None
            return Challenge(row.challenge, row.purpose, row.account_id)

    return retrying(work)


# Failed sign-ins -----------------------------------------------------------------------


def failures(store: Store, keys: Sequence[str]) -> dict[str, tuple[int, float]]:
    """The failed sign-ins in a row under each key: how many, and the last one's time."""
    query = select(sign_in_failures).where(sign_in_failures.c.key.in_(list(keys)))
    with reading(store.engine) as c:
        return {r.key: (int(r.failures), _stamp(r.last_at)) for r in c.execute(query)}


def add_failure(store: Store, keys: Sequence[str], at: float, forget_before: float) -> None:
    """One failed sign-in more under each key (the first again where the last one was
    before ``forget_before``)."""
    count = case(
        (sign_in_failures.c.last_at < _at(forget_before), 1),
        else_=sign_in_failures.c.failures + 1,
    )

    def work() -> None:
        with store.engine.begin() as c:
            for key in keys:
                done = c.execute(
                    update(sign_in_failures)
                    .where(sign_in_failures.c.key == key)
                    .values(failures=count, last_at=_at(at))
                ).rowcount
                if not done:
                    c.execute(insert(sign_in_failures).values(key=key, failures=1, last_at=_at(at)))

    retrying(lambda: _again_on_conflict(work))


def _again_on_conflict(work: Callable[[], None]) -> None:
    """Two first failures under one key at once: the second insert conflicts; again."""
    try:
        work()
    except IntegrityError:
        work()


def clear_failures(store: Store, keys: Sequence[str]) -> None:
    _run(store, delete(sign_in_failures).where(sign_in_failures.c.key.in_(list(keys))))


# Seats of an account -------------------------------------------------------------------


def set_table_seat_account(c: Connection, table_id: str, seat: int, account_id: str) -> None:
    """The seat of a table just recorded is the account's (in the caller's transaction)."""
    c.execute(
        update(table_seats)
        .where(table_seats.c.table_id == table_id, table_seats.c.seat == seat)
        .values(account_id=account_id)
    )


def link_game_seats(c: Connection, table_id: str, game_id: str) -> None:
    """A table's game just recorded: each of its seats is the account's whose seat it is
    at the table (in the caller's transaction)."""
    owner = (
        select(table_seats.c.account_id)
        .where(table_seats.c.table_id == table_id, table_seats.c.seat == seats.c.seat)
        .scalar_subquery()
    )
    c.execute(update(seats).where(seats.c.game_id == game_id).values(account_id=owner))


def claim_seats(store: Store, account_id: str, token_hashes: Sequence[str]) -> int:
    """A guest who signs in hands over the seats their browser holds (by the hashes of
    their tokens): those not anyone's yet become the account's, at their tables and in
    the tables' games. Returns how many table seats did."""
    hashes = list(dict.fromkeys(token_hashes))
    if not hashes:
        return 0
    at_table = and_(
        table_seats.c.token_hash.in_(hashes),
        table_seats.c.account_id.is_(None),
    )
    in_game = exists().where(
        tables.c.game_id == seats.c.game_id,
        table_seats.c.table_id == tables.c.id,
        table_seats.c.seat == seats.c.seat,
        table_seats.c.token_hash.in_(hashes),
    )

    def work() -> int:
        with store.engine.begin() as c:
            c.execute(
                update(seats)
                .where(seats.c.account_id.is_(None), in_game)
                .values(account_id=account_id)
            )
            return int(
                c.execute(
                    update(table_seats).where(at_table).values(account_id=account_id)
                ).rowcount
            )

    return retrying(work)


def seats_of(store: Store, account_id: str) -> list[AccountSeat]:
    """Every table seat of the account, the newest table first (for its export)."""
    query = (
        select(
            table_seats.c.table_id, table_seats.c.seat, table_seats.c.name, tables.c.status,
            tables.c.game_id, tables.c.created_at,
        )
        .join(tables, tables.c.id == table_seats.c.table_id)
        .where(table_seats.c.account_id == account_id)
        .order_by(tables.c.created_at.desc(), tables.c.id)
    )  # fmt: skip
    with reading(store.engine) as c:
        return [
            AccountSeat(r.table_id, r.seat, r.name, r.status, r.game_id, _stamp(r.created_at))
            for r in c.execute(query)
        ]


def games_of(store: Store, account_id: str) -> list[str]:
    """The ids of the games the account played a seat of, the newest first."""
    query = (
        select(games.c.id, games.c.created_at)
        .join(seats, seats.c.game_id == games.c.id)
        .where(seats.c.account_id == account_id)
        .order_by(games.c.created_at.desc(), games.c.id)
        .distinct()
    )
    with reading(store.engine) as c:
        return [str(g) for g in c.execute(query).scalars()]


__all__ = [
    "AccountRecord",
    "AccountSeat",
    "Challenge",
    "PasskeyRecord",
    "SessionRecord",
    "account_by_id",
    "account_by_key",
    "add_failure",
    "add_passkey",
    "add_session",
    "claim_seats",
    "clear_failures",
    "create_account",
    "delete_account",
    "end_session",
    "end_sessions",
    "failures",
    "games_of",
    "link_game_seats",
    "passkey",
    "passkey_used",
    "passkeys_of",
    "put_challenge",
    "recovery_codes_left",
    "remove_passkey",
    "rename_account",
    "replace_recovery_codes",
    "seats_of",
    "session_of",
    "sessions_of",
    "set_password",
    "set_table_seat_account",
    "take_challenge",
    "touch_session",
    "use_recovery_code",
]
