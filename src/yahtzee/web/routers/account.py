"""The account (REST): sign up, sign in, sign out (here or everywhere), and the signed-in
account. A sign-up or sign-in answers with the session cookie (`web.accounts`); its body
may hand over the seat tokens the browser holds (a guest's seats become the account's).
Bodies are read as strict JSON."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response

from ...service.accounts import SignedIn, secret_hash
from ..account_models import (
    AccountView,
    Me,
    PasskeyView,
    SessionView,
    SignedInView,
    SignedUpView,
    SignIn,
    SignUp,
)
from ..accounts import (
    AccountsDep,
    SignedInDep,
    clear_session_cookie,
    session_secret,
    set_session_cookie,
)
from ..deps import LobbyDep, StrictJSONRoute

router = APIRouter(prefix="/api/account", route_class=StrictJSONRoute)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def agent_of(request: Request) -> str | None:
    return request.headers.get("user-agent")


async def signed_in_now(
    request: Request, response: Response, lobby: LobbyDep, signed: SignedIn, seats: list[str]
) -> None:
    """The browser keeps the session; the guest's seats it named become the account's."""
    set_session_cookie(request, response, signed)
    if seats:
        await lobby.claim_seats(signed.account.id, seats)


@router.post("/sign-up", status_code=201)
async def sign_up(
    body: SignUp, request: Request, response: Response, accounts: AccountsDep, lobby: LobbyDep
) -> SignedUpView:
    """A new account with a password (``400 name_taken``, ``400 weak_password``), signed
    in; its recovery codes, shown this once."""
    made = await asyncio.to_thread(accounts.sign_up, body.name, body.password, agent_of(request))
    await signed_in_now(request, response, lobby, made.signed_in, body.seats)
    return SignedUpView(
        account=AccountView.of(made.signed_in.account), recovery_codes=list(made.recovery_codes)
    )


@router.post("/sign-in")
async def sign_in(
    body: SignIn, request: Request, response: Response, accounts: AccountsDep, lobby: LobbyDep
) -> SignedInView:
    """Sign in with a password or a recovery code: ``401 bad_credentials`` (the same for
    an unknown name), ``429 slow_down`` (with ``Retry-After``) after many failures."""
    signed = await asyncio.to_thread(
        accounts.sign_in, body.name, address_of(request), password=body.password,
        recovery_code=body.recovery_code, agent=agent_of(request),
    )  # fmt: skip
    await signed_in_now(request, response, lobby, signed, body.seats)
    return SignedInView(account=AccountView.of(signed.account))


@router.post("/sign-out", status_code=204)
async def sign_out(
    request: Request, response: Response, accounts: AccountsDep, _: SignedInDep
) -> None:
    """This browser's session ends (``401 signed_out`` without one)."""
    secret = session_secret(request)
    assert secret is not None  # (signed in)
    await asyncio.to_thread(accounts.sign_out, secret)
    clear_session_cookie(request, response)


@router.post("/sign-out-everywhere", status_code=204)
async def sign_out_everywhere(
    request: Request, response: Response, accounts: AccountsDep, account: SignedInDep
) -> None:
    """Every session of the account ends, this one too."""
    await asyncio.to_thread(accounts.sign_out_everywhere, account)
    clear_session_cookie(request, response)


@router.get("")
async def me(request: Request, accounts: AccountsDep, account: SignedInDep) -> Me:
    """The signed-in account: its name, passkeys, sessions and recovery codes left."""
    seen = await asyncio.to_thread(accounts.overview, account)
    secret = session_secret(request)
    current = secret_hash(secret) if secret else None
    return Me(
        account=AccountView.of(account),
        created_at=seen.account.created_at,
        password=seen.account.password_hash is not None,
        passkeys=[PasskeyView.of(k) for k in seen.passkeys],
        sessions=[SessionView.of(s, current) for s in seen.sessions],
        recovery_codes_left=seen.recovery_codes_left,
    )
