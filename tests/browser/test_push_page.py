"""The page's service worker in Chromium: it is registered for the whole site, and a push
delivered to it (CDP ``ServiceWorker.deliverPushMessage``, as the browser does with what
its push service brought) shows the notification, a later one replacing it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import TIMEOUT, open_page
from tests.live_server import running
from yahtzee.service.notifier import notification

SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => (
    { title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url, icon: n.icon }));
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("push-page")
    with running(f"sqlite:///{folder / 'push.db'}", push_allow_local=True) as address:
        yield f"http://{address}"


def worker_registration(page: Any) -> tuple[Any, str]:
    """A CDP session on the page with the service worker domain on, and the id of the
    page's registration (scope: the whole site)."""
    found: dict[str, str] = {}
    cdp = page.context.new_cdp_session(page)

    def updated(params: dict[str, Any]) -> None:
        for registration in params["registrations"]:
            if not registration.get("isDeleted"):
                found[registration["scopeURL"]] = registration["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    deadline = time.monotonic() + TIMEOUT / 1000
    while scope not in found:
        assert time.monotonic() < deadline, f"no registration for {scope}: {found}"
        page.wait_for_timeout(50)  # CDP events arrive while Playwright waits
    return cdp, found[scope]


def shown(page: Any, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + TIMEOUT / 1000
    while True:
        notes: list[dict[str, Any]] = page.evaluate(SHOWN)
        if len(notes) == count and (count == 0 or notes[-1]["title"]):
            return notes
        assert time.monotonic() < deadline, f"notifications shown: {notes}"
        page.wait_for_timeout(50)


def test_a_pushed_turn_shows_a_notification_that_a_later_one_replaces(
    browser: Any, site: str
) -> None:
    page = open_page(browser, site, permissions=["notifications"])
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{site}/"
    cdp, registration = worker_registration(page)
    first = notification("t-1", ["Bob"], 1)
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": site, "registrationId": registration, "data": first.payload().decode(),
    })  # fmt: skip
    [note] = shown(page, 1)
    assert note == {
        "title": "Your turn", "body": "It is your turn in your game against Bob.",
        "tag": first.tag, "url": f"{site}/?table=t-1", "icon": f"{site}/static/favicon.svg",
    }  # fmt: skip
    later = notification("t-2", ["Cleo"], 2)
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": site, "registrationId": registration, "data": later.payload().decode(),
    })  # fmt: skip
    deadline = time.monotonic() + TIMEOUT / 1000
    while (notes := shown(page, 1))[0]["title"] != "Your turn in 2 games":
        assert time.monotonic() < deadline, notes
        page.wait_for_timeout(50)
    assert notes[0]["url"] == f"{site}/?table=t-2"


def test_a_push_off_the_site_opens_the_home_page_and_bad_text_still_notifies(
    browser: Any, site: str
) -> None:
    page = open_page(browser, site, permissions=["notifications"])
    cdp, registration = worker_registration(page)
    away = {"title": "Your turn", "body": "b", "url": "https://evil.example/", "tag": "t"}
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": site, "registrationId": registration, "data": json.dumps(away),
    })  # fmt: skip
    [note] = shown(page, 1)
    assert note["url"] == f"{site}/"
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": site, "registrationId": registration, "data": "not json",
    })  # fmt: skip
    notes = shown(page, 2)
    assert {n["title"] for n in notes} == {"Your turn"}


def test_the_worker_is_served_at_the_root_for_the_whole_site(site: str) -> None:
    import httpx

    answer = httpx.get(f"{site}/sw.js", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert "showNotification" in answer.text
