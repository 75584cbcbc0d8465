"""The page's service worker in Chromium: it is registered for the whole site, and a push
delivered to it (CDP ``ServiceWorker.deliverPushMessage``, as the browser does with what
its push service brought) shows the notification, a later one replacing it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import http_ece
import pytest
from sqlalchemy import select

from tests.browser.support import (
    TIMEOUT,
    create_table,
    open_page,
    start,
    table_id,
    text_of,
    wait_text,
)
from tests.live_server import running
from tests.push_service import PushService, unb64url, vapid_claims
from tests.service.test_notifier import notifier_on
from yahtzee.service.notifier import notification
from yahtzee.service.push import vapid_key
from yahtzee.store import Store
from yahtzee.store.schema import push_subscriptions, table_seats

SHOWN = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map((n) => (
    { title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url, icon: n.icon }));
}"""


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder: Path = tmp_path_factory.mktemp("push-page")
    return f"sqlite:///{folder / 'push.db'}"


@pytest.fixture(scope="module")
def site(database: str) -> Iterator[str]:
    with running(database, push_allow_local=True) as address:
        yield f"http://{address}"


def deliver(cdp: Any, site: str, registration: str, text: str) -> None:
    """What the browser does with a push its push service brought: the worker's push event."""
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": site, "registrationId": registration, "data": text,
    })  # fmt: skip


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
    page = open_page(browser, site, permissions=["notifications"], service_workers="allow")
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{site}/"
    cdp, registration = worker_registration(page)
    first = notification("t-1", ["Bob"], 1)
    deliver(cdp, site, registration, first.payload().decode())
    [note] = shown(page, 1)
    assert note == {
        "title": "Your turn", "body": "It is your turn in your game against Bob.",
        "tag": first.tag, "url": f"{site}/?table=t-1", "icon": f"{site}/static/favicon.svg",
    }  # fmt: skip
    later = notification("t-2", ["Cleo"], 2)
    deliver(cdp, site, registration, later.payload().decode())
    deadline = time.monotonic() + TIMEOUT / 1000
    while (notes := shown(page, 1))[0]["title"] != "Your turn in 2 games":
        assert time.monotonic() < deadline, notes
        page.wait_for_timeout(50)
    assert notes[0]["url"] == f"{site}/?table=t-2"


def test_a_push_off_the_site_opens_the_home_page_and_bad_text_still_notifies(
    browser: Any, site: str
) -> None:
    page = open_page(browser, site, permissions=["notifications"], service_workers="allow")
    cdp, registration = worker_registration(page)
    away = {"title": "Your turn", "body": "b", "url": "https://evil.example/", "tag": "t"}
    deliver(cdp, site, registration, json.dumps(away))
    [note] = shown(page, 1)
    assert note["url"] == f"{site}/"
    deliver(cdp, site, registration, "not json")
    notes = shown(page, 2)
    assert {n["title"] for n in notes} == {"Your turn"}


def test_the_worker_is_served_at_the_root_for_the_whole_site(site: str) -> None:
    import httpx

    answer = httpx.get(f"{site}/sw.js", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert "showNotification" in answer.text


# PushManager.subscribe reaches the browser's own push service (Google's, for Chromium),
# which the tests cannot: the page gets the test's push service's subscription instead,
# and keeps the key it was asked to subscribe with.
STAND_IN = """(subscription) => {
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    window.subscribedWith = Array.from(new Uint8Array(options.applicationServerKey));
    current = { endpoint: subscription.endpoint, toJSON: () => subscription,
                unsubscribe: async () => { current = null; return true; } };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
}"""


def test_notify_me_subscribes_the_account_and_its_turn_shows_as_a_notification(
    browser: Any, site: str, database: str
) -> None:
    """The whole way: the signed-in player taps "Notify me" at a table in play; the page
    subscribes with the server's key and gives the subscription to the server; the
    server's notifier (here a second node on the same records) pushes the turn to the
    push service, which hands what it decrypts to the browser's worker; the notification
    names the table."""
    with PushService().running() as service, Store(database) as store:
        phone = service.browser()
        page = open_page(browser, None, permissions=["notifications"], service_workers="allow")
        page.add_init_script(script=f"({STAND_IN})({json.dumps(phone.subscription())})")
        page.goto(site)
        signed = page.evaluate(SIGN_UP, {"name": "Vera", "password": "correct horse battery"})
        assert signed == 201
        create_table(page, name="Vera", bots=(1,))
        start(page)
        table = table_id(page)
        page.wait_for_selector("#notify:visible")
        assert text_of(page, "#notify") == "Notify me when it's my turn"
        page.click("#notify")
        wait_text(page, "#notify", "Stop turn notifications")
        key = page.evaluate("async () => (await (await fetch('/api/push/key')).json()).key")
        assert bytes(page.evaluate("() => window.subscribedWith")) == unb64url(key)
        with store.engine.connect() as c:
            holder = c.execute(select(push_subscriptions.c.account_id)).scalar_one()
            seat_account = c.execute(
                select(table_seats.c.account_id).where(
                    table_seats.c.table_id == table, table_seats.c.seat == 0
                )
            ).scalar_one()
        assert holder == seat_account is not None

        node = notifier_on(store, vapid_key(store))
        turn = node.notify(table, 1000, holder, here=False, others=["Bot"])
        with ThreadPoolExecutor(1) as aside:  # (Playwright's loop runs in this thread)
            assert aside.submit(asyncio.run, turn).result(timeout=30).sent == 1
        push = service.next()
        vapid_claims(push, key, service.origin)
        text = http_ece.decrypt(
            push.body, private_key=phone.key, auth_secret=phone.auth, version="aes128gcm"
        ).decode()
        cdp, registration = worker_registration(page)
        deliver(cdp, site, registration, text)
        [note] = shown(page, 1)
        assert note["title"] == "Your turn" and note["url"] == f"{site}/?table={table}"

        page.click("#notify")  # and off again: the server forgets it
        wait_text(page, "#notify", "Notify me when it's my turn")
        with store.engine.connect() as c:
            assert c.execute(select(push_subscriptions)).first() is None


SIGN_UP = """async (body) => (await fetch("/api/account/sign-up", {
  method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
})).status"""
