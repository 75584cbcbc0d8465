"""Passkeys (WebAuthn, with py_webauthn): sign up, sign in, and add a passkey to an
account, each a ceremony of two steps: the options (a fresh challenge, kept in the records
for `CHALLENGE_S` seconds, for the ceremony's id) and the browser's answer, checked against
that challenge, which is spent then (single use, whatever the answer).

The relying party is the site the request came to (`Site`: its host name as the RP id, its
scheme, host and port as the origin): a passkey made for another site, or an answer signed
in another origin's page, is refused (``passkey_refused``). A host that is an IP address
can have no passkey (browsers refuse them as RP ids: ``passkeys_unavailable``); players
there sign up and in with a password. Passkeys are discoverable (resident) credentials:
signing in asks for no name, the authenticator offers the site's passkeys.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import uuid
from dataclasses import dataclass
from typing import Any, Final

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..core import IllegalMove, InvalidInput, player_name
from ..core.language import _
from ..store import accounts as records
from ..store.names import look_alike_key
from .accounts import Account, Accounts, SignedIn, SignedOut, SignedUp, name_taken, secret_hash

RP_NAME: Final = "Yahtzee"
CHALLENGE_S: Final = 5 * 60
"""A ceremony's challenge is good this long, and once."""
TIMEOUT_MS: Final = CHALLENGE_S * 1000
MAX_LABEL: Final = 60
SIGN_UP: Final = "sign_up"
SIGN_IN: Final = "sign_in"
ADD: Final = "add"
_SELECTION: Final = AuthenticatorSelectionCriteria(
    resident_key=ResidentKeyRequirement.REQUIRED,
    user_verification=UserVerificationRequirement.PREFERRED,
)


@dataclass(frozen=True, slots=True)
class Site:
    """The relying party: where the request came to."""

    rp_id: str
    """The host name (no port)."""
    origin: str
    """``scheme://host[:port]``, as a browser's page there names its origin."""


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A ceremony's first step: its id (the client sends it back with its answer) and the
    options for ``navigator.credentials`` (WebAuthn's JSON form)."""

    id: str
    options: dict[str, Any]


def refused(why: str) -> InvalidInput:
    return InvalidInput(
        # Translators: {reason} says why, as a clause ("it was made for another site").
        _("This passkey was refused ({reason}). Try again, or use your password.").format(
            reason=why
        ),
        code="passkey_refused",
    )


def expired() -> InvalidInput:
    return InvalidInput(
        _("This passkey request has expired or was used already: start again."),
        code="ceremony_expired",
    )


def _check_site(site: Site) -> None:
    try:
        ipaddress.ip_address(site.rp_id.strip("[]"))
    except ValueError:
        return
    raise InvalidInput(
        _("Passkeys need the site's name, not an IP address: sign in with a password here."),
        code="passkeys_unavailable",
    )


def _label(label: str | None, agent: str | None) -> str:
    text = " ".join((label or "").split())[:MAX_LABEL]
    return text or _agent_label(agent)


def _agent_label(agent: str | None) -> str:
    """A passkey's default label: where it was made (by the browser's User-Agent)."""
    known = ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux", "CrOS")
    found = next((k for k in known if agent and k in agent), None)
    return (
        f"Passkey ({found.replace('Mac OS', 'Mac').replace('CrOS', 'ChromeOS')})"
        if found
        else "Passkey"
    )


class Passkeys:
    """The ceremonies; ``accounts`` makes the accounts and sessions."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    # The ceremonies' first step ----------------------------------------------------------

    def _begin(self, purpose: str, account_id: str | None, options: Any) -> Ceremony:
        ceremony = secrets.token_urlsafe(24)
        now = self.accounts.clock()
        challenge = records.Challenge(bytes_to_base64url(options.challenge), purpose, account_id)
        records.put_challenge(self.store, secret_hash(ceremony), challenge, now + CHALLENGE_S, now)
        return Ceremony(ceremony, json.loads(options_to_json(options)))

    def sign_up_options(self, site: Site, name: str) -> Ceremony:
        """A new account's first passkey: the account is made when its answer checks out
        (``name_taken`` now already when an account's name looks like this one)."""
        _check_site(site)
        clean = player_name(name)
        if records.account_by_key(self.store, look_alike_key(clean)) is not None:
            raise name_taken()
        account_id = str(uuid.uuid4())
        options = generate_registration_options(
            rp_id=site.rp_id, rp_name=RP_NAME, user_name=clean, user_display_name=clean,
            user_id=account_id.encode(), timeout=TIMEOUT_MS, authenticator_selection=_SELECTION,
        )  # fmt: skip
        return self._begin(SIGN_UP, account_id, options)

    def add_options(self, site: Site, account: Account) -> Ceremony:
        """One more passkey for a signed-in account (its passkeys are not made again)."""
        _check_site(site)
        known = records.passkeys_of(self.store, account.id)
        options = generate_registration_options(
            rp_id=site.rp_id, rp_name=RP_NAME, user_name=account.name,
            user_display_name=account.name, user_id=account.id.encode(), timeout=TIMEOUT_MS,
            authenticator_selection=_SELECTION,
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                for k in known
            ],
        )  # fmt: skip
        return self._begin(ADD, account.id, options)

    def sign_in_options(self, site: Site) -> Ceremony:
        """A sign-in: any of the site's passkeys (the authenticator offers them)."""
        _check_site(site)
        options = generate_authentication_options(
            rp_id=site.rp_id, timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.PREFERRED,
        )  # fmt: skip
        return self._begin(SIGN_IN, None, options)

    # The answers -----------------------------------------------------------------------

    def _take(self, ceremony: str, purpose: str) -> records.Challenge:
        found = records.take_challenge(self.store, secret_hash(ceremony), self.accounts.clock())
        if found is None or found.purpose != purpose:
            raise expired()
        return found

    def _registered(
        self, site: Site, challenge: records.Challenge, credential: dict[str, Any]
    ) -> tuple[str, str, int, str | None]:
        """The new passkey's id, public key, count and transports, once checked."""
        try:
            made = verify_registration_response(
                credential=credential, expected_challenge=base64url_to_bytes(challenge.challenge),
                expected_rp_id=site.rp_id, expected_origin=site.origin,
            )  # fmt: skip
        except (WebAuthnException, ValueError, TypeError, KeyError) as error:
            raise refused(_reason(error)) from None
        transports = credential.get("response", {}).get("transports")
        hints = (
            ",".join(t for t in transports if isinstance(t, str))[:200]
            if isinstance(transports, list)
            else None
        )
        return (
            bytes_to_base64url(made.credential_id),
            bytes_to_base64url(made.credential_public_key),
            made.sign_count,
            hints or None,
        )

    def sign_up(
        self,
        site: Site,
        ceremony: str,
        name: str,
        credential: dict[str, Any],
        *,
        agent: str | None = None,
        label: str | None = None,
    ) -> SignedUp:
        """The new account, with its first passkey, signed in."""
        challenge = self._take(ceremony, SIGN_UP)
        assert challenge.account_id is not None
        key_id, public, count, transports = self._registered(site, challenge, credential)
        account, key = self.accounts.new_account(name)
        account = records.AccountRecord(
            challenge.account_id, account.name, None, account.created_at
        )
        passkey = records.PasskeyRecord(
            key_id, account.id, public, count, transports, _label(label, agent), account.created_at
        )
        return self.accounts.record_new(account, key, agent, passkey)

    def add(
        self,
        site: Site,
        ceremony: str,
        account: Account,
        credential: dict[str, Any],
        *,
        agent: str | None = None,
        label: str | None = None,
    ) -> records.PasskeyRecord:
        challenge = self._take(ceremony, ADD)
        if challenge.account_id != account.id:
            raise expired()
        key_id, public, count, transports = self._registered(site, challenge, credential)
        passkey = records.PasskeyRecord(
            key_id, account.id, public, count, transports, _label(label, agent),
            self.accounts.clock(),
        )  # fmt: skip
        if not records.add_passkey(self.store, passkey):
            raise IllegalMove(_("This passkey is in use already."), code="passkey_known")
        return passkey

    def sign_in(
        self, site: Site, ceremony: str, credential: dict[str, Any], agent: str | None = None
    ) -> SignedIn:
        """Sign in with a passkey: never slowed, and it clears the name's failed sign-ins."""
        challenge = self._take(ceremony, SIGN_IN)
        key_id = credential.get("id") if isinstance(credential, dict) else None
        found = records.passkey(self.store, key_id) if isinstance(key_id, str) else None
        if found is None:
            raise refused(_("it belongs to no account here: it may have been removed"))
        try:
            checked = verify_authentication_response(
                credential=credential, expected_challenge=base64url_to_bytes(challenge.challenge),
                expected_rp_id=site.rp_id, expected_origin=site.origin,
                credential_public_key=base64url_to_bytes(found.public_key),
                credential_current_sign_count=found.sign_count,
            )  # fmt: skip
        except (WebAuthnException, ValueError, TypeError, KeyError) as error:
            raise refused(_reason(error)) from None
        records.passkey_used(
            self.store, found.credential_id, checked.new_sign_count, self.accounts.clock()
        )
        owner = records.account_by_id(self.store, found.account_id)
        if owner is None:
            raise refused(_("it belongs to no account here"))
        self.accounts.limits.succeeded(look_alike_key(owner.name))
        return self.accounts.open_session(Account(owner.id, owner.name), agent)

    def remove(self, account: Account, credential_id: str) -> None:
        """A passkey of the account goes; not the last way in (no password, no other
        passkey: ``last_way_in``)."""
        keys = records.passkeys_of(self.store, account.id)
        if not any(k.credential_id == credential_id for k in keys):
            raise InvalidInput(_("This account has no such passkey."), code="no_passkey")
        record = records.account_by_id(self.store, account.id)
        if record is None:
            raise SignedOut(_("This account no longer exists."))
        if len(keys) == 1 and record.password_hash is None:
            raise IllegalMove(
                _("This is your only way to sign in: add a password or another passkey first."),
                code="last_way_in",
            )
        records.remove_passkey(self.store, account.id, credential_id)


def _reason(error: Exception) -> str:
    """Why the library refused an answer, in words a player can pass on."""
    text = str(error).lower()
    if "origin" in text:
        return _("it was made or used on another site")
    if "rp id" in text or "rp_id" in text:
        return _("it was made for another site")
    if "challenge" in text:
        return _("it answered another request")
    return _("its answer did not check out")


__all__ = [
    "CHALLENGE_S",
    "Ceremony",
    "Passkeys",
    "Site",
    "expired",
    "refused",
]
