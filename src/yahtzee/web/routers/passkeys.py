"""Passkeys (REST): sign up, sign in, and add or remove a passkey; each ceremony an
``options`` call (its challenge) and the call that sends the browser's answer. The relying
party is the host the request came to (`site_of`). Bodies are read as strict JSON."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from ...service.passkeys import Passkeys, Site
from ..account_models import (
    AccountView,
    CeremonyView,
    NoBody,
    PasskeyAdd,
    PasskeyName,
    PasskeySignIn,
    PasskeySignUp,
    PasskeyView,
    SignedInView,
    SignedUpView,
)
from ..accounts import AccountsDep, SignedInDep
from ..deps import LobbyDep, StrictJSONRoute
from .account import agent_of, signed_in_now

router = APIRouter(prefix="/api/account/passkeys", route_class=StrictJSONRoute)


def site_of(request: Request) -> Site:
    """The relying party: the host this request came to (checked against the allowed
    hosts already), and its origin."""
    url = request.url
    return Site(url.hostname or "", f"{url.scheme}://{url.netloc}")


async def passkeys_of(accounts: AccountsDep) -> Passkeys:
    return Passkeys(accounts)


PasskeysDep = Annotated[Passkeys, Depends(passkeys_of)]


@router.post("/sign-up/options")
async def sign_up_options(body: PasskeyName, request: Request, keys: PasskeysDep) -> CeremonyView:
    """A new account's passkey: the options for ``navigator.credentials.create``
    (``400 name_taken``; ``400 passkeys_unavailable`` on an IP address)."""
    made = await asyncio.to_thread(keys.sign_up_options, site_of(request), body.name)
    return CeremonyView.of(made)


@router.post("/sign-up", status_code=201)
async def sign_up(
    body: PasskeySignUp, request: Request, response: Response, keys: PasskeysDep, lobby: LobbyDep
) -> SignedUpView:
    """The new account with its passkey, signed in; its recovery codes, shown once
    (``400 passkey_refused``, ``400 ceremony_expired``)."""
    made = await asyncio.to_thread(
        keys.sign_up, site_of(request), body.ceremony, body.name, body.credential,
        agent=agent_of(request), label=body.label,
    )  # fmt: skip
    await signed_in_now(request, response, lobby, made.signed_in, body.seats)
    return SignedUpView(
        account=AccountView.of(made.signed_in.account), recovery_codes=list(made.recovery_codes)
    )


@router.post("/sign-in/options")
async def sign_in_options(_: NoBody, request: Request, keys: PasskeysDep) -> CeremonyView:
    """A passkey sign-in: the options for ``navigator.credentials.get``."""
    return CeremonyView.of(await asyncio.to_thread(keys.sign_in_options, site_of(request)))


@router.post("/sign-in")
async def sign_in(
    body: PasskeySignIn, request: Request, response: Response, keys: PasskeysDep, lobby: LobbyDep
) -> SignedInView:
    """Signed in with a passkey (never slowed): ``400 passkey_refused``, ``400
    ceremony_expired``."""
    signed = await asyncio.to_thread(
        keys.sign_in, site_of(request), body.ceremony, body.credential, agent_of(request)
    )
    await signed_in_now(request, response, lobby, signed, body.seats)
    return SignedInView(account=AccountView.of(signed.account))


@router.post("/options")
async def add_options(
    _: NoBody, request: Request, keys: PasskeysDep, account: SignedInDep
) -> CeremonyView:
    """One more passkey for the signed-in account: the options."""
    return CeremonyView.of(await asyncio.to_thread(keys.add_options, site_of(request), account))


@router.post("", status_code=201)
async def add(
    body: PasskeyAdd, request: Request, keys: PasskeysDep, account: SignedInDep
) -> PasskeyView:
    """The passkey added (``409 passkey_known``, ``400 passkey_refused``)."""
    added = await asyncio.to_thread(
        keys.add, site_of(request), body.ceremony, account, body.credential,
        agent=agent_of(request), label=body.label,
    )  # fmt: skip
    return PasskeyView.of(added)


@router.delete("/{credential_id}", status_code=204)
async def remove(credential_id: str, keys: PasskeysDep, account: SignedInDep) -> None:
    """A passkey of the account goes (``409 last_way_in`` for the only way to sign in)."""
    await asyncio.to_thread(keys.remove, account, credential_id)
