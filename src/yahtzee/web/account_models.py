"""The account's REST bodies and answers (see ``docs/protocol.md``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..core import MAX_NAME_LENGTH
from ..service.accounts import MAX_PASSWORD, Account
from ..service.lobby import MAX_CLAIMED
from ..store.accounts import PasskeyRecord, SessionRecord

MAX_TOKEN = 200
MAX_CODE = 40


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


def _seats() -> list[str]:
    """The seat tokens a browser holds (at most `MAX_CLAIMED`)."""
    return Field(default_factory=list, max_length=MAX_CLAIMED)


class SignUp(_Body):
    """``POST /api/account/sign-up``: a new account with a password; ``seats``: the seat
    tokens the browser holds (a guest's seats become the account's)."""

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)
    seats: list[str] = _seats()


class SignIn(_Body):
    """``POST /api/account/sign-in``: a name with its password, or with one of its
    recovery codes (spent); ``seats`` as for `SignUp`."""

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    password: str | None = Field(default=None, min_length=1, max_length=MAX_PASSWORD)
    recovery_code: str | None = Field(default=None, min_length=1, max_length=MAX_CODE)
    seats: list[str] = _seats()


class AccountView(BaseModel):
    id: str
    name: str

    @classmethod
    def of(cls, account: Account) -> AccountView:
        return cls(id=account.id, name=account.name)


class SignedUpView(BaseModel):
    account: AccountView
    recovery_codes: list[str]
    """Shown this once: each signs in once in place of the password (or a passkey)."""


class SignedInView(BaseModel):
    account: AccountView


class SessionView(BaseModel):
    created_at: float
    seen_at: float
    agent: str | None
    current: bool
    """This browser's session."""

    @classmethod
    def of(cls, session: SessionRecord, current: str | None) -> SessionView:
        return cls(
            created_at=session.created_at, seen_at=session.seen_at, agent=session.agent,
            current=session.id_hash == current,
        )  # fmt: skip


class PasskeyView(BaseModel):
    id: str
    """The credential's id (base64url)."""
    label: str
    created_at: float
    used_at: float | None

    @classmethod
    def of(cls, key: PasskeyRecord) -> PasskeyView:
        return cls(
            id=key.credential_id, label=key.label, created_at=key.created_at,
            used_at=key.used_at,
        )  # fmt: skip


class Me(BaseModel):
    """``GET /api/account``: the signed-in account."""

    account: AccountView
    created_at: float
    password: bool
    """Whether the account has a password (else it signs in with passkeys only)."""
    passkeys: list[PasskeyView]
    sessions: list[SessionView]
    recovery_codes_left: int


__all__ = [
    "AccountView",
    "Me",
    "PasskeyView",
    "SessionView",
    "SignIn",
    "SignUp",
    "SignedInView",
    "SignedUpView",
]
