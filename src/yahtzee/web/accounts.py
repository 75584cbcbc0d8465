"""Who is signed in: the session cookie, the routes' dependencies, and the cross-site
check of cookie-authenticated writes.

The session cookie is ``yz_session`` (``__Host-yz_session`` behind https: the browser then
keeps it to this exact host, Secure, Path=/): HttpOnly (no script reads it), SameSite=Lax
(no other site's sub-request carries it). Its value is the session's secret; the records
keep only its SHA-256 (`service.accounts`).

`AccountDep` is the signed-in account (None for a guest), `SignedInDep` the signed-in
account or ``401 signed_out``. `CrossSiteCheck` refuses (``403 cross_site``) every unsafe
request (POST, PUT, PATCH, DELETE) that carries the session cookie unless it comes from a
page of this site: its ``Origin`` names the host the request is for (``Sec-Fetch-Site:
same-origin`` also passes). Requests without the cookie (a guest's, the seat tokens'
``Authorization: Bearer``) are not cookie-authenticated and pass.
"""

from __future__ import annotations

import asyncio
from http.cookies import SimpleCookie
from typing import Annotated, Final
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..core.language import N_, _
from ..service.accounts import Account, Accounts, SignedIn, SignedOut
from .security import relayed, send_refusal

COOKIE: Final = "yz_session"
SECURE_COOKIE: Final = "__Host-yz_session"
COOKIE_MAX_AGE_S: Final = 400 * 24 * 60 * 60
"""The browser keeps the cookie this long (its limit); the server ends an unused session
sooner (`service.accounts.SESSION_IDLE_S`)."""
UNSAFE: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HTTP_FORBIDDEN: Final = 403
SIGNED_OUT: Final = N_("Sign in first (or your session has ended: sign in again).")


async def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


AccountsDep = Annotated[Accounts, Depends(accounts_of)]


def _https(request: Request) -> bool:
    return request.url.scheme == "https"


def session_secret(request: Request) -> str | None:
    """The session cookie's secret (None without one)."""
    return request.cookies.get(SECURE_COOKIE) or request.cookies.get(COOKIE)


async def account_of(request: Request, accounts: AccountsDep) -> Account | None:
    """The signed-in account of this request's session cookie (None: a guest)."""
    secret = session_secret(request)
    if secret is None:
        return None
    return await asyncio.to_thread(accounts.account_of, secret)


async def signed_in(account: Annotated[Account | None, Depends(account_of)]) -> Account:
    """The signed-in account, or ``401 signed_out``."""
    if account is None:
        raise SignedOut(_(SIGNED_OUT))
    return account


AccountDep = Annotated[Account | None, Depends(account_of)]
SignedInDep = Annotated[Account, Depends(signed_in)]


def set_session_cookie(request: Request, response: Response, signed: SignedIn) -> None:
    """The browser keeps the new session's secret (HttpOnly, SameSite=Lax; behind https
    ``__Host-`` and Secure)."""
    secure = _https(request)
    response.set_cookie(
        SECURE_COOKIE if secure else COOKIE, signed.secret, max_age=COOKIE_MAX_AGE_S,
        path="/", secure=secure, httponly=True, samesite="lax",
    )  # fmt: skip


def clear_session_cookie(request: Request, response: Response) -> None:
    secure = _https(request)
    response.delete_cookie(
        SECURE_COOKIE if secure else COOKIE, path="/", secure=secure, httponly=True,
        samesite="lax",
    )  # fmt: skip


def _has_session_cookie(header: str) -> bool:
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(header)
    except Exception:  # a malformed header: look for the name itself
        return COOKIE in header
    return COOKIE in cookies or SECURE_COOKIE in cookies


def same_site(headers: dict[str, str]) -> bool:
    """Whether a request comes from a page of the site it is for: ``Origin`` names the
    ``Host`` (scheme and host allowed by `security.HostCheck` already), or the browser
    says ``Sec-Fetch-Site: same-origin``."""
    if headers.get("sec-fetch-site") == "same-origin":
        return True
    origin, host = headers.get("origin"), headers.get("host")
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    if default is None or not parts.hostname:
        return False
    try:
        port = parts.port or default
        wanted = urlsplit(f"//{host}")
        wanted_port = wanted.port or default
    except ValueError:
        return False
    return (parts.hostname, port) == (wanted.hostname, wanted_port)


class CrossSiteCheck:
    """Refuses (``403 cross_site``, the app not reached: nothing changes) an unsafe request
    carrying the session cookie that does not come from a page of this site. A request
    another node of the site relayed was checked there."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in UNSAFE or relayed(scope):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cookie = "; ".join(
            v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"cookie"
        )
        if not cookie or not _has_session_cookie(cookie) or same_site(headers):
            await self.app(scope, receive, send)
            return
        await send_refusal(
            send,
            HTTP_FORBIDDEN,
            "cross_site",
            _("This request comes from another site: nothing was changed."),
        )


__all__ = [
    "COOKIE",
    "SECURE_COOKIE",
    "AccountDep",
    "AccountsDep",
    "CrossSiteCheck",
    "SignedInDep",
    "account_of",
    "clear_session_cookie",
    "same_site",
    "session_secret",
    "set_session_cookie",
    "signed_in",
]
