"""The account page in Chromium with its virtual authenticator (CDP ``WebAuthn``): a guest
who made a table signs up with a passkey (the table's seat becomes the account's, the
recovery codes are shown once), signs out, and signs in again with the same passkey.
http://localhost is a secure context: passkeys work there. Screenshots of the account page
(desktop and phone) go to ``test-artifacts`` (with ``YAHTZEE_DOCS_SCREENSHOTS=1``, to
``docs/web-account-{desktop,phone}.png``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.browser.support import (
    PHONE,
    axe_path,
    axe_violations,
    create_table,
    open_page,
    text_of,
    wait_text,
    with_axe,
)
from tests.live_server import running
from tests.server_process import ROOT

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def with_authenticator(page: Any) -> tuple[Any, str]:
    """The page's browser gets a platform authenticator (passkeys, user verified)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, str(added["authenticatorId"])


def export_of(page: Any) -> Any:
    return page.evaluate("async () => (await fetch('/api/account/export')).json()")


def test_sign_up_and_in_again_with_a_passkey(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    with running(f"sqlite:///{tmp_path / 'server.db'}") as base:
        site = f"http://localhost:{base.rsplit(':', 1)[1]}"
        page = open_page(browser, None)
        with_axe(page, axe_path())
        page.goto(f"{site}/")
        cdp, authenticator = with_authenticator(page)
        create_table(page, bots=(1,))  # a guest's table: its seat token in this browser
        page.goto(f"{site}/?account")
        page.wait_for_selector("#signed-out:not([hidden])")
        assert page.is_visible("#passkey-sign-in")
        problems = axe_violations(page, "signed out")
        page.fill("#sign-up-name", "Ann")
        page.click("#passkey-sign-up")
        page.wait_for_selector("#signed-in:not([hidden])")
        assert page.locator("#codes li").count() == 10
        wait_text(page, "#account-title", "Ann")
        assert text_of(page, "#account-link") == "Ann"
        (passkey,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"
        ]
        assert passkey["isResidentCredential"] and passkey["rpId"] == "localhost"
        data = export_of(page)
        assert [s["name"] for s in data["seats"]] == ["Ann"]  # the guest's seat, handed over
        problems += axe_violations(page, "recovery codes shown")
        page.click("#codes-kept")
        page.emulate_media(color_scheme="dark")
        problems += axe_violations(page, "signed in, dark")
        page.emulate_media(color_scheme="light")
        shots(page, artifacts)
        assert not problems, "\n".join(problems)

        page.click("#sign-out")
        page.wait_for_selector("#signed-out:not([hidden])")
        assert page.evaluate("async () => (await fetch('/api/account')).status") == 401
        page.click("#passkey-sign-in")
        page.wait_for_selector("#signed-in:not([hidden])")
        wait_text(page, "#account-title", "Ann")
        signed_in = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert signed_in["credentials"][0]["signCount"] >= 1  # the passkey signed
        assert export_of(page)["account"]["name"] == "Ann"
        assert not [line for line in page.console_lines if "pageerror" in line]


def shots(page: Any, artifacts: Path) -> None:
    """The signed-in account page, desktop then phone."""
    docs = os.environ.get("YAHTZEE_DOCS_SCREENSHOTS") == "1"
    where = ROOT / "docs" if docs else artifacts
    page.screenshot(path=str(where / "web-account-desktop.png"), full_page=True)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.screenshot(path=str(where / "web-account-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
