"""Phones at 320 and 390 px (issue 49, item 5): a box focused with the keyboard or tapped
where the dice tray half covers it ends clear of the tray (and the tap scores it); eight
players' names are drawn whole, the turn line too; the daily result says the points lost
as one number, without a minus sign, and offers no sitting in columns for its one game;
the page's modules come from their version's addresses, cached for good."""

from __future__ import annotations

import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.support import SLOW, open_page, roll, wait_text
from tests.browser.test_daily_page import play_by_socket
from tests.live_server import running
from tests.server_process import ServerProcess
from tests.web.helpers import seated

NAMES = ["Isabella", "Sebastian", "Charlotte", "Benjamin", "Amelia", "Mateo", "Olivia", "Noah"]
PHONES = [(320, 640), (390, 844)]

# Where the tray covers a box: its bounding box and the tray's overlap.
CLEAR_OF_TRAY = """(node) => {
    const r = node.getBoundingClientRect();
    const tray = document.getElementById('tray').getBoundingClientRect();
    return r.bottom <= tray.top || r.top >= tray.bottom;
}"""

# Scroll the page so that the box's lower half is under the tray; where to tap its upper half.
HALF_UNDER_TRAY = """(node) => {
    const tray = document.getElementById('tray').getBoundingClientRect();
    const r = node.getBoundingClientRect();
    window.scrollBy(0, r.top + r.height / 2 - tray.top);
    const after = node.getBoundingClientRect();
    return { x: after.left + after.width / 2, y: after.top + after.height / 4,
             covered: after.bottom > tray.top && after.top < tray.top };
}"""

# The daily result as the player sees it.
DAILY_RESULT = """() => {
    const visible = (n) => !!n.getClientRects().length && !n.closest('[hidden]');
    const turn = document.getElementById('turn');
    return { skill: document.getElementById('daily-skill').textContent,
             board: document.querySelector('#board-skill li.me .total').textContent,
             text: document.getElementById('daily-result').textContent,
             columns: visible(document.getElementById('columns-open')),
             clipped: turn.scrollWidth > turn.clientWidth ? [turn.textContent] : [],
             width: document.documentElement.scrollWidth };
}"""

# Once the page has handled a click on a box (a listener on the window runs after the
# box's own), whether the box is clear of the tray.
AFTER_THE_CLICK = f"""() => addEventListener('click', (event) => {{
    const box = event.target.closest('.propose');
    if (box) window.clearAfterClick = ({CLEAR_OF_TRAY})(box);
}}, {{ once: true }})"""

# Each text that does not show whole: wider or taller than its box.
CLIPPED = """(nodes) => nodes.filter((n) => n.scrollWidth > n.clientWidth
                                     || n.scrollHeight > n.clientHeight)
                          .map((n) => n.textContent)"""


def table_of(base: str, names: list[str], friends: list[str]) -> tuple[str, str]:
    """A started table of these people (the first one its host, the others joined by the
    invite: their tokens added to ``friends``); its id and the host's token."""
    with httpx.Client(base_url=base, timeout=10) as client:
        made = client.post(
            "/api/tables", json={"host": names[0], "seats": [{"kind": "human"}] * (len(names) - 1)}
        ).json()
        for name in names[1:]:
            joined = client.post(f"/api/join/{made['invite']}", json={"name": name})
            assert joined.is_success, joined.text
            friends.append(joined.json()["token"])
        table_id = made["table"]["id"]
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['token']}"}
        )
        assert started.is_success, started.text
    return table_id, made["token"]


def phone_at(
    browser: Any,
    base: str,
    table_id: str,
    *,
    seat: tuple[int, str, str],
    size: tuple[int, int],
    screen: str = "play",
) -> Any:
    """A phone (touch) with this seat (number, token, name) at the table, on the table's
    ``screen``."""
    page = open_page(browser, base, size, has_touch=True, is_mobile=True)
    page.evaluate(
        "([id, [seat, token, name]]) => localStorage.setItem('yahtzee:' + id,"
        " JSON.stringify({ seat, token, name }))",
        [table_id, list(seat)],
    )
    page.goto(f"{base}/?table={table_id}")
    page.wait_for_selector(f"#{screen}:not([hidden])")
    return page


def test_a_focused_or_tapped_box_ends_clear_of_the_dice_tray(
    browser: Any, server: ServerProcess
) -> None:
    friends: list[str] = []
    table_id, token = table_of(server.base, ["Ann", "Bob"], friends)
    page = phone_at(browser, server.base, table_id, seat=(0, token, "Ann"), size=(320, 640))
    wait_text(page, "#turn", "your turn")
    roll(page)
    boxes = page.locator("#scorecard .propose")
    boxes.last.wait_for()
    # the keyboard: Tab from the box before onto a box the tray half covers
    target = boxes.nth(boxes.count() - 2)
    place = target.evaluate(HALF_UNDER_TRAY)
    assert place["covered"], place
    boxes.nth(boxes.count() - 3).evaluate("(node) => node.focus({ preventScroll: true })")
    assert target.evaluate(HALF_UNDER_TRAY)["covered"]
    page.keyboard.press("Tab")
    assert target.evaluate("(node) => node === document.activeElement")
    assert target.evaluate(CLEAR_OF_TRAY), "the focused box stays under the dice tray"
    # a tap on the part of a box the tray leaves uncovered: the box comes clear (where it
    # is once the page has taken the click, before the server's answer redraws the card),
    # and it scores
    tapped = boxes.last
    row = tapped.evaluate("(n) => [...n.closest('tbody').rows].indexOf(n.closest('tr')) + 1")
    place = tapped.evaluate(HALF_UNDER_TRAY)
    assert place["covered"], place
    page.evaluate(AFTER_THE_CLICK)
    page.touchscreen.tap(place["x"], place["y"])
    wait_text(page, "#turn", "Bob's turn")
    assert page.evaluate("() => window.clearAfterClick") is True, "the tapped box stays under"
    cell = page.locator(f"#scorecard tbody tr:nth-child({row}) td.p0")
    assert "filled" in (cell.get_attribute("class") or "")


@pytest.mark.parametrize("size", PHONES, ids=[f"{w}px" for w, _ in PHONES])
def test_eight_names_and_the_turn_line_show_whole_on_a_phone(
    browser: Any, server: ServerProcess, size: tuple[int, int]
) -> None:
    friends: list[str] = []
    table_id, token = table_of(server.base, NAMES, friends)
    with ExitStack() as stack:  # everyone at the table is here (the second on a phone)
        for friend in friends[1:]:
            stack.enter_context(seated(server.base.split("//")[1], table_id, token=friend))
        host = phone_at(browser, server.base, table_id, seat=(0, token, NAMES[0]), size=size)
        other = phone_at(browser, server.base, table_id, seat=(1, friends[0], NAMES[1]), size=size)
        wait_text(host, "#turn", "Round 1 of 13: your turn")
        wait_text(other, "#turn", f"Round 1 of 13: {NAMES[0]}'s turn")
        roll(host)
        for page in (host, other):
            page.wait_for_timeout(300)  # the redraw after the roll reached it
            strip = page.locator("#players .chip .who")
            assert strip.all_text_contents() == NAMES
            assert strip.evaluate_all(CLIPPED) == [], "names cut short in the strip"
            heads = page.locator("#scorecard thead th.player .name")
            assert heads.count() >= 3
            assert heads.evaluate_all(CLIPPED) == [], "names cut short on the card"
            assert page.locator("#turn").evaluate_all(CLIPPED) == [], "the turn line is cut"
            assert page.evaluate("() => document.documentElement.scrollWidth") == size[0]


def test_the_daily_result_says_the_points_lost_once_and_offers_no_columns(
    browser: Any, tmp_path: Path
) -> None:
    with running(f"sqlite:///{tmp_path / 'daily.db'}") as address:
        table_id, token = play_by_socket(address, "Vera", greedy=True)
        base = f"http://{address}"
        result = httpx.get(
            f"{base}/api/daily/tables/{table_id}/result",
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        page = phone_at(
            browser, base, table_id, seat=(0, token, "Vera"), size=(320, 640), screen="over"
        )
        page.wait_for_selector("#daily-result:not([hidden])", timeout=SLOW)
        shown = page.evaluate(DAILY_RESULT)
    lost = f"{result['loss']:.1f}"
    assert f"{lost} points lost to the best choices" in shown["skill"], shown
    assert shown["board"] == lost  # the same number, not "-208.4" beside "208.4 points lost"
    assert not re.search(r"-\d", shown["text"].replace(result["day"], "")), shown
    assert shown["columns"] is False  # a game of one: nothing to show in columns
    assert shown["clipped"] == [] and shown["width"] == 320


def test_the_page_loads_its_modules_from_their_version_cached_for_good(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, None)
    answers: list[Any] = []
    page.on("response", lambda answer: answers.append(answer))  # noqa: PLW0108 (a bound builtin cannot be a Playwright handler)
    page.goto(server.base)
    page.wait_for_selector("#create:not([hidden])")
    files = [a for a in answers if "/static/" in a.url]
    modules = {a.url.rsplit("/", 1)[1] for a in files if a.url.endswith(".js")}
    assert {"app.js", "state.js", "card.js", "daily.js"} <= modules
    versions = {re.search(r"/static/([0-9a-f]{16})/", a.url) for a in files}
    assert None not in versions and len({v.group(1) for v in versions if v}) == 1
    for answer in files:
        assert answer.headers.get("cache-control") == "public, max-age=31536000, immutable"
