"""The page's way into offline play and out of it (issue 53), in Chromium at phone size:
the new-game form's "Play on this phone", chosen by itself when the server cannot be
reached; a finished game of this phone kept in the signed-in account once the connection
is back (listed there as offline); a game whose stored moves were edited refused by the
server, its message shown, the game kept on the phone.

These tests need localroom's local room (static/local_table.js, device_store.js and
net.js's socket for a device table): without it they are skipped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.browser.support import open_page, roll, score_best, wait_text
from tests.live_server import running
from yahtzee.web.page_files import STATIC

pytestmark = pytest.mark.skipif(
    not (STATIC / "local_table.js").exists(), reason="needs the local room (local_table.js)"
)

PHONE = (390, 844)
PASSWORD = "correct horse battery"
# the page's own device_store.js (its versioned address): a finished game's first score
# written one point higher, as someone editing the phone's storage would
TAMPER = """async (id) => {
  const base = document.querySelector("script[type=module]").src.replace(/app\\.js$/, "");
  const store = await import(base + "device_store.js");
  const record = await store.loadTable(id);
  const first = record.events.find((e) => e.type === "score");
  first.points += 1;
  await store.saveTable(record);
  return first.points;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('offline-ui') / 'site.db'}"
    with running(db) as address:
        yield address


@pytest.fixture(scope="module")
def ann(site: str) -> Iterator[httpx.Client]:
    """An account (signed up through the API), its session in the client's cookies."""
    client = httpx.Client(
        base_url=f"http://{site}", headers={"origin": f"http://{site}"}, timeout=10
    )
    try:
        answer = client.post("/api/account/sign-up", json={"name": "Ann", "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        yield client
    finally:
        client.close()


def first_visit(browser: Any, site: str, ann: httpx.Client | None = None) -> Any:
    """The page opened online (signed in as ``ann`` if given), the app's worker in control:
    what this phone keeps for playing offline (the rules, the advisor's table) is kept."""
    page = open_page(browser, None, PHONE, service_workers="allow")
    if ann is not None:
        cookie = ann.cookies.get("yz_session")
        page.context.add_cookies([{"name": "yz_session", "value": cookie, "url": f"http://{site}"}])
    page.goto(f"http://{site}/")
    page.wait_for_selector("#create:not([hidden])")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page


def play_alone_on_the_phone(page: Any) -> str:
    """The connection off, a game of one on this phone played to its end: its table id."""
    page.context.set_offline(True)
    page.wait_for_selector("#where-device:checked")
    page.fill("#host-name", "Ann")
    page.click("#create-table")
    page.wait_for_selector("#play:not([hidden])")
    assert "table=device-" in page.url
    table = str(page.evaluate("() => new URLSearchParams(location.search).get('table')"))
    for _ in range(13):
        page.wait_for_selector("#roll[aria-disabled='false']")
        roll(page)
        score_best(page)
    page.wait_for_selector("#over:not([hidden])")
    return table


def history(ann: httpx.Client) -> list[dict[str, Any]]:
    answer = ann.get("/api/me/history")
    assert answer.status_code == 200, answer.text
    return list(answer.json()["games"])


def test_the_form_plays_on_this_phone_when_the_server_cannot_be_reached(
    browser: Any, site: str
) -> None:
    # the server does not answer (the browser thinks it is online): this phone, said so
    page = open_page(browser, None, PHONE)
    page.route("**/api/health", lambda route: route.abort())
    page.goto(f"http://{site}/")
    page.wait_for_selector("#where-device:checked")
    wait_text(page, "#where-note", "No connection")
    assert page.is_disabled("#where-online")
    assert page.text_content("#create-title") == "New game on this phone"
    assert page.is_hidden("#timer-choice")
    page.close()

    # online, then the connection goes: the same, and back online: the online table again
    page = first_visit(browser, site)
    page.wait_for_selector("#where-online:checked")
    assert page.is_hidden("#where-note")
    page.context.set_offline(True)
    page.wait_for_selector("#where-device:checked")
    wait_text(page, "#where-online-note", "Needs a connection")
    wait_text(page, "#daily-note", "needs a connection")
    page.context.set_offline(False)
    page.wait_for_selector("#where-online:checked:enabled")
    page.context.set_offline(True)
    page.wait_for_selector("#where-device:checked")

    # two people and a bot on this phone: the game starts at once, nothing asked of the server
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.fill("#host-name", "Ann")
    page.click("#add-human")
    page.fill("#player-name-0", "Bea")
    page.click("#add-bot")
    bots = page.eval_on_selector_all("#bot-kind-1 option", "os => os.map((o) => o.value)")
    assert "winning" not in bots and "level3" in bots  # (the bots this phone has)
    page.click("#create-table")
    page.wait_for_selector("#play:not([hidden])")
    assert "table=device-" in page.url
    wait_text(page, "#turn", "Ann")
    assert not [url for url in asked if "/api/tables" in url or "/ws/" in url], asked


def test_a_finished_game_of_this_phone_is_kept_in_the_account_once_online(
    browser: Any, site: str, ann: httpx.Client
) -> None:
    page = first_visit(browser, site, ann)
    table = play_alone_on_the_phone(page)
    assert page.is_hidden("#upload-offer")  # (offline: nothing offered)
    page.context.set_offline(False)
    wait_text(page, "#upload-offer-text", "Keep your offline game in your account")
    page.click("#upload-keep")
    wait_text(page, "#upload-results", "kept in your account")
    kept = [g for g in history(ann) if g["offline"]]
    assert len(kept) == 1 and kept[0]["status"] == "finished"
    assert page.is_hidden("#upload-keep")  # nothing more to offer
    page.goto(f"http://{site}/?my")
    item = page.locator(f".my-game[data-table='{table}']")
    item.wait_for()
    assert "kept in your account" in str(item.text_content())
    assert page.is_hidden("#upload-offer")


def test_a_game_whose_stored_moves_were_edited_is_refused_and_stays_on_the_phone(
    browser: Any, site: str, ann: httpx.Client
) -> None:
    before = len(history(ann))
    page = first_visit(browser, site, ann)
    table = play_alone_on_the_phone(page)
    page.evaluate(TAMPER, table)
    page.context.set_offline(False)
    wait_text(page, "#upload-offer-text", "Keep your offline game in your account")
    page.click("#upload-keep")
    wait_text(page, "#upload-results", "This game cannot be kept")
    wait_text(page, "#upload-results", "It stays on this phone")
    assert len(history(ann)) == before  # nothing kept on the server
    # kept on the phone, with the server's word, and not offered again
    page.goto(f"http://{site}/?my")
    item = page.locator(f".my-game[data-table='{table}']")
    item.wait_for()
    assert "not kept: This game cannot be kept" in str(item.text_content())
    assert page.is_hidden("#upload-offer")
