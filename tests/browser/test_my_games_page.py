"""The My games screen in Chromium: a signed-in account's tables in their order, the count
of tables waiting for its move on the title, the top bar and the icon (a badge drawn on
it), no accessibility violation in light and dark, and "Sit down" at a seat kept for it
taking the seat on this device."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.browser.support import (
    DESKTOP,
    PHONE,
    TIMEOUT,
    axe_path,
    axe_violations,
    open_page,
    wait_text,
    with_axe,
)
from tests.live_server import running

PASSWORD = "correct horse battery"
DAY = 86_400


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = f"sqlite:///{tmp_path_factory.mktemp('my') / 'site.db'}"
    with running(db) as base:
        yield base


def person(base: str, name: str) -> httpx.Client:
    c = httpx.Client(base_url=f"http://{base}", headers={"origin": f"http://{base}"}, timeout=10)
    answer = c.post("/api/account/sign-up", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return c


def call(c: httpx.Client, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = c.post(path, json=body if body is not None else {}, headers=headers)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def new_table(host: httpx.Client, name: str, friend: str) -> tuple[str, str]:
    """A turn-by-turn table of ``host``'s (its id and host token), a seat kept for
    ``friend``."""
    body = {"host": name, "seats": [{"kind": "human"}], "turn_timer": DAY}
    made = call(host, "/api/tables", body)
    table_id = made["table"]["id"]
    call(host, f"/api/tables/{table_id}/invite", {"account": friend}, made["token"])
    return str(table_id), str(made["token"])


@pytest.fixture(scope="module")
def ann(site: str) -> Iterator[tuple[httpx.Client, str, str]]:
    """Ann, with a table where she is to move (Bob's guest) and one kept for her (Cy's)."""
    ann, bob, cy = (person(site, name) for name in ("Ann", "Bob", "Cy"))
    try:
        ours, token = new_table(ann, "Ann", "Bob")
        call(bob, f"/api/tables/{ours}/seat")
        call(ann, f"/api/tables/{ours}/start", token=token)
        kept, _ = new_table(cy, "Cy", "Ann")
        yield ann, ours, kept
    finally:
        for c in (ann, bob, cy):
            c.close()


def signed_in(
    browser: Any, site: str, ann: httpx.Client, size: tuple[int, int], scheme: str
) -> Any:
    page = open_page(browser, None, size, scheme)
    cookie = ann.cookies.get("yz_session")
    page.context.add_cookies([{"name": "yz_session", "value": cookie, "url": f"http://{site}"}])
    return page


@pytest.mark.parametrize(("size", "scheme"), [(DESKTOP, "light"), (PHONE, "dark")])
def test_my_games_lists_my_turn_first_with_the_count_on_title_bar_and_icon(
    browser: Any, site: str, ann: tuple[httpx.Client, str, str], size: tuple[int, int], scheme: str
) -> None:
    client, ours, kept = ann
    page = signed_in(browser, site, client, size, scheme)
    with_axe(page, axe_path())
    page.goto(f"http://{site}/?my")
    page.wait_for_selector(".my-game", timeout=TIMEOUT)
    page.wait_for_function("() => document.title === '(1) Yahtzee'", timeout=TIMEOUT)
    groups = page.eval_on_selector_all(
        ".my-game", "items => items.map((i) => [i.dataset.table, i.className])"
    )
    assert groups[0] == [ours, "my-game your_turn"]
    assert [kept, "my-game lobby"] in groups
    assert page.text_content("#my-games-count") == "1"
    page.wait_for_function(
        "() => document.querySelector(\"link[rel='icon']\").dataset.count === '1'", timeout=TIMEOUT
    )
    assert page.get_attribute("link[rel='icon']", "href").startswith("data:image/png")
    page.wait_for_selector(".friend", timeout=TIMEOUT)
    assert axe_violations(page, f"my games, {scheme}") == []
    assert not [line for line in page.console_lines if "error" in line.lower()]


def test_sit_down_takes_the_seat_kept_for_me_on_this_device(
    browser: Any, site: str, ann: tuple[httpx.Client, str, str]
) -> None:
    client, _, kept = ann
    page = signed_in(browser, site, client, DESKTOP, "light")
    page.goto(f"http://{site}/?my")
    page.click(f".my-game[data-table='{kept}'] button")
    page.wait_for_selector("#lobby", state="visible", timeout=TIMEOUT)
    wait_text(page, "#lobby-seats", "Ann")
    stored = page.evaluate("(id) => JSON.parse(localStorage.getItem(`yahtzee:${id}`))", kept)
    assert stored["seat"] == 1 and stored["token"]
    assert page.url.endswith(f"/?table={kept}")


def test_signed_out_the_top_bar_has_no_my_games(browser: Any, site: str) -> None:
    page = open_page(browser, f"http://{site}/?my")
    wait_text(page, "#my-games-note", "Sign in to see your games on every device.")
    assert page.is_hidden("#my-games-link")
    assert page.title() == "Yahtzee"
