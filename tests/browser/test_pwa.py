"""The installable app in Chromium (issue 53, item 1): the manifest and its icons, the
install criteria as Chromium reads them (CDP), a service worker controlling the page after
the first visit, the app opening with the network off, and the update flow ("A new version
is ready", Reload), and the page's own "Install app" offer (Chromium's beforeinstallprompt).

The server (one for the module) serves a copy of the page's files, so that a test can make
a new version by changing one of them."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import (
    OFFER_INSTALL,
    SCHEMES,
    TIMEOUT,
    axe_path,
    axe_violations,
    open_page,
    with_axe,
)
from tests.browser_support import CHROMIUM_FLAGS, chromium
from tests.live_server import running
from yahtzee.web import app as web_app
from yahtzee.web.page_files import STATIC, PageFiles
from yahtzee.web.shell import official_advisor_table

PHONE = (390, 844)
ICON_SIZES = """async () => {
  const manifest = await (await fetch("/manifest.webmanifest")).json();
  return Promise.all(manifest.icons.map((icon) => new Promise((resolve) => {
    const image = new Image();
    const size = () => `${image.naturalWidth}x${image.naturalHeight}`;
    image.onload = () => resolve([icon.src, icon.sizes, size()]);
    image.onerror = () => resolve([icon.src, icon.sizes, "failed"]);
    image.src = icon.src;
  })));
}"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"
TABLE_SIZE = "async (address) => (await (await fetch(address)).arrayBuffer()).byteLength"
KEPT_PAGE = "async (name) => (await (await caches.open(name)).match('/')).text()"
CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('yahtzee-app-'))"


class CountedFiles(PageFiles):
    """The page's files, counting how often the page (``/``) was served."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.pages_served = 0

    def index(self) -> bytes:
        self.pages_served += 1
        return super().index()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> CountedFiles:
    folder = tmp_path_factory.mktemp("pwa") / "static"
    shutil.copytree(STATIC, folder)
    return CountedFiles(folder)


@pytest.fixture(scope="module")
def site(files: CountedFiles, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("pwa-db") / "pwa.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(web_app, "PageFiles", lambda: files)  # the app serves the copy
        with running(f"sqlite:///{database}") as address:
            yield f"http://{address}"


def first_visit(browser: Any, site: str, scheme: str = "light") -> Any:
    """The page opened once, its worker active and in control (``clients.claim``)."""
    page = open_page(browser, site, PHONE, scheme, service_workers="allow")
    page.wait_for_selector("#create:not([hidden])")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function(CONTROLLED)
    return page


def test_chromium_finds_the_app_installable_and_its_icons_load(site: str) -> None:
    """Chromium says "in-incognito" for any context of its own browser, so this one test
    opens a browser with a profile on disk."""
    with tempfile.TemporaryDirectory() as profile:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=chromium(), args=CHROMIUM_FLAGS,
                viewport={"width": PHONE[0], "height": PHONE[1]}, timeout=60_000,
            )  # fmt: skip
            try:
                context.set_default_timeout(TIMEOUT)
                page = context.new_page()
                page.goto(site)
                page.evaluate("async () => { await navigator.serviceWorker.ready; }")
                cdp = context.new_cdp_session(page)
                manifest = cdp.send("Page.getAppManifest")
                assert manifest["url"] == f"{site}/manifest.webmanifest"
                assert manifest["errors"] == []
                parsed = manifest["manifest"]
                assert parsed["display"] == "kStandalone" and parsed["startUrl"] == f"{site}/"
                assert parsed["name"] == "Yahtzee" and parsed["themeColor"]
                assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
                icons = page.evaluate(ICON_SIZES)
                assert len(icons) == 3
                for src, sizes, loaded in icons:
                    assert loaded == sizes, src
            finally:
                context.close()


def test_after_the_first_visit_a_worker_controls_the_page_and_it_opens_offline(
    browser: Any, site: str, files: CountedFiles
) -> None:
    page = first_visit(browser, site)
    navigation = "() => performance.getEntriesByType('navigation')[0].type"
    assert page.evaluate(navigation) == "navigate"  # the worker's take-over reloaded nothing
    page.reload()
    page.wait_for_selector("#create:not([hidden])")
    assert page.evaluate(CONTROLLED)
    version = files.version()
    assert page.evaluate(CACHES) == [f"yahtzee-app-{version}"]

    page.context.set_offline(True)
    served = files.pages_served
    answers: list[Any] = []
    page.on("response", lambda answer: answers.append(answer))  # noqa: PLW0108 (see support.py)
    page.reload()  # as the home-screen icon opens it: "/", with no network
    page.wait_for_selector("#create:not([hidden])")  # the page, its modules and the rules
    assert files.pages_served == served  # the worker's copy: the server was not asked
    assert page.is_visible(".brand-name")
    assert page.evaluate("() => getComputedStyle(document.body).margin") == "0px"  # style.css
    kept = [a for a in answers if f"/static/{version}/" in a.url]
    assert len(kept) > 10 and all(a.from_service_worker and a.ok for a in kept), kept
    rules = [a for a in answers if a.url.endswith("/api/rules")]
    assert rules and rules[0].from_service_worker and rules[0].ok
    assert page.evaluate("() => fetch('/api/health').then(() => 'online', () => 'offline')") == (
        "offline"
    )  # not kept: the network's own answer
    table = page.evaluate(TABLE_SIZE, official_advisor_table())
    assert table > 100_000  # the official advisor table, kept for hints offline
    page.context.set_offline(False)
    page.reload()
    page.wait_for_selector("#create:not([hidden])")
    assert files.pages_served == served + 1  # online: the server's page first


def test_a_new_version_is_offered_and_reload_brings_it(
    browser: Any, site: str, files: CountedFiles
) -> None:
    page = first_visit(browser, site)
    page.reload()
    page.wait_for_function(CONTROLLED)
    old = files.version()
    assert page.is_hidden("#update")
    style = files.folder / "style.css"
    style.write_text(style.read_text() + "\n/* a new version */\n")
    new = files.version()
    assert new != old
    page.evaluate("async () => { await (await navigator.serviceWorker.ready).update(); }")
    page.wait_for_selector("#update:not([hidden])")
    assert page.text_content("#update") == "A new version is readyReload"
    assert page.get_attribute("#update", "role") == "status"
    assert f"/static/{old}/app.js" in page.content()  # the page is still the old one
    assert f"/static/{new}/app.js" in page.evaluate("() => fetch('/').then((r) => r.text())")
    kept_page = page.evaluate(KEPT_PAGE, f"yahtzee-app-{old}")
    assert f"/static/{old}/app.js" in kept_page  # the old worker keeps its own version's page
    page.keyboard.press("Tab")  # the first thing on the page to reach by keyboard
    assert page.evaluate("() => document.activeElement.id") == "update-reload"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector("#create:not([hidden])")
    assert f"/static/{new}/app.js" in page.content()
    assert page.is_hidden("#update")
    assert page.evaluate(CACHES) == [f"yahtzee-app-{new}"]  # the old version's cache is gone
    state = page.evaluate(
        "async () => { const r = await navigator.serviceWorker.getRegistration();"
        " return [r.active && r.active.state, r.waiting]; }"
    )
    assert state == ["activated", None]


def test_install_app_offers_chromiums_prompt_and_goes_once_used(browser: Any, site: str) -> None:
    page = open_page(browser, site, PHONE)
    page.wait_for_selector("#create:not([hidden])")
    assert page.is_hidden("#install-offer")
    assert page.evaluate(OFFER_INSTALL) is True  # kept for the page's button
    page.wait_for_selector("#install-offer:not([hidden])")
    assert page.text_content("#install") == "Install app"
    page.click("#install")
    assert page.evaluate("() => window.prompted") == 1
    page.wait_for_selector("#install-offer", state="hidden")
    page.evaluate(OFFER_INSTALL)  # Chromium offers it again (the prompt dismissed)
    page.wait_for_selector("#install-offer:not([hidden])")
    page.evaluate("() => window.dispatchEvent(new Event('appinstalled'))")
    page.wait_for_selector("#install-offer", state="hidden")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_update_banner_is_accessible(browser: Any, site: str, scheme: str) -> None:
    path = axe_path()
    page = open_page(browser, None, PHONE, scheme, service_workers="allow")
    with_axe(page, path)
    page.goto(site)
    page.wait_for_selector("#create:not([hidden])")
    page.evaluate(
        "() => { document.getElementById('update').hidden = false;"
        " document.getElementById('update-text').textContent = 'A new version is ready';"
        " document.getElementById('install-offer').hidden = false; }"
    )
    assert axe_violations(page, f"update banner, {scheme}") == []
