"""Any phone, any table (issue 26, items 2, 3 and 5): eight seats with long names at 320,
360 and 430 px wide and held sideways, with no sideways scrolling, no word broken inside,
every control at least 44x44 CSS px and every box reachable above the dice; held dice
that keep their places through a roll and a reload; a click never lost."""

from __future__ import annotations

from typing import Any

import httpx

from tests.browser.support import (
    TIMEOUT,
    axe_path,
    axe_violations,
    faces,
    held,
    open_page,
    roll,
    wait_text,
    with_axe,
)
from tests.browser.test_look import CONTRAST
from tests.server_process import ServerProcess

NAMES = [
    "Maximiliana Wolkenstein-Habsburg", "Bartholomew Featherstonehaugh",
    "Anastasia Konstantinopoulou", "Guðmundur Sigurðsson-Björnsson",
    "Wilhelmina Vandersloot-Smythe", "Oluwaseun Adebayo-Okonkwo",
    "Christopherson McAllister", "Jean-Baptiste Delacroix-Fontaine",
]  # fmt: skip
SIZES = [(320, 640), (360, 740), (430, 932), (740, 360)]  # the last: held sideways

CONTROLS_TOO_SMALL = """() => [...document.querySelectorAll(
        'button, a[href], input, select, [role=button]')]
    .filter((e) => e.getClientRects().length && !e.closest('[hidden]')
                   && getComputedStyle(e).visibility !== 'hidden')
    .map((e) => { const r = e.getBoundingClientRect();
                  return [e.id || e.dataset.focus || e.className,
                          Math.round(r.width), Math.round(r.height)]; })
    .filter(([, w, h]) => w < 44 || h < 44)"""

# A word drawn on two lines has two boxes: any such word, in any text on screen.
BROKEN_WORDS = """() => {
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('[hidden]') || !parent.getClientRects().length) continue;
        const style = getComputedStyle(parent);
        if (style.position === 'absolute' && style.clip !== 'auto') continue;  // read aloud only
        for (const match of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
            const lines = new Set(boxes.map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(match[0]);
        }
    }
    return broken;
}"""

# Each box to fill, scrolled into view: on screen and clear of the dice tray.
BOXES_HIDDEN = """() => {
    const tray = document.getElementById('tray').getBoundingClientRect();
    const hidden = [];
    for (const button of document.querySelectorAll('#scorecard .propose')) {
        button.scrollIntoView({ block: 'center' });
        const r = button.getBoundingClientRect();
        const clear = r.bottom <= tray.top || r.top >= tray.bottom
                      || r.right <= tray.left || r.left >= tray.right;
        const inside = r.top >= 0 && r.bottom <= innerHeight
                       && r.left >= 0 && r.right <= innerWidth;
        if (!clear || !inside) hidden.push(button.dataset.box);
    }
    window.scrollTo(0, 0);
    return hidden;
}"""


def seated_table(base: str, friends: list[str] | None = None) -> tuple[str, str]:
    """A started table of eight people with long names (seven joined by their invite); the
    table's id and the host's token (the others' tokens added to ``friends``)."""
    with httpx.Client(base_url=base, timeout=10) as client:
        made = client.post(
            "/api/tables", json={"host": NAMES[0], "seats": [{"kind": "human"}] * 7}
        ).json()
        for name in NAMES[1:]:
            joined = client.post(f"/api/join/{made['invite']}", json={"name": name})
            assert joined.is_success, joined.text
            if friends is not None:
                friends.append(joined.json()["token"])
        table_id = made["table"]["id"]
        token = made["token"]
        started = client.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.is_success, started.text
    return table_id, token


def host_page(
    browser: Any, base: str, table_id: str, token: str, size: tuple[int, int], *, axe: bool = False
) -> Any:
    page = open_page(browser, base, size, has_touch=True, is_mobile=True)
    if axe:
        with_axe(page, axe_path())
    page.evaluate(
        "([id, token, name]) => localStorage.setItem('yahtzee:' + id,"
        " JSON.stringify({ seat: 0, token, name }))",
        [table_id, token, NAMES[0]],
    )
    page.goto(f"{base}/?table={table_id}")
    page.wait_for_selector("#play:not([hidden])")
    return page


def test_eight_seats_with_long_names_fit_every_phone(browser: Any, server: ServerProcess) -> None:
    table_id, token = seated_table(server.base)
    page = host_page(browser, server.base, table_id, token, SIZES[0], axe=True)
    wait_text(page, "#turn", "your turn")
    roll(page)
    found: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "(w) => innerWidth === w && document.getElementById('scorecard').offsetWidth <= w",
            arg=width,
        )
        page.wait_for_timeout(250)  # the redraw after a resize
        where = f"{width}x{height}"
        assert page.evaluate("() => document.documentElement.scrollWidth") == width, where
        assert page.evaluate(CONTROLS_TOO_SMALL) == [], where
        assert page.evaluate(BROKEN_WORDS) == [], where
        assert page.locator("#players .chip").count() == 8, where  # everyone at the table
        columns = page.locator("#scorecard thead th.player").count()
        assert 2 <= columns <= 8, where  # as many as fit: the player to move and more
        assert page.evaluate(BOXES_HIDDEN) == [], where
        found.extend(axe_violations(page, where))
        # the drawn initials (axe cannot read them): white on each seat's colour
        for ratio in page.locator("#players .avatar").evaluate_all(f"(all) => all.map({CONTRAST})"):
            assert ratio >= 4.5, (where, ratio)
    assert not found, "\n".join(found)
    # another player's column on demand: press their chip
    page.set_viewport_size({"width": 320, "height": 640})
    page.wait_for_timeout(250)
    hidden = page.locator("#players .chip[aria-pressed='false']")
    assert hidden.count() >= 1
    last = hidden.last
    name = last.locator(".who").text_content() or ""
    last.click()
    wait_text(page, "#scorecard thead", name[:6])


def start_against_a_bot(page: Any) -> None:
    """Ann against a bot, started: her first roll is up."""
    page.fill("#host-name", "Ann")
    page.click("#add-bot")
    page.click("#create-table")
    page.wait_for_selector("#start:enabled")
    page.click("#start")
    page.wait_for_selector("#roll[aria-disabled='false']")


def test_held_dice_keep_their_places_through_a_roll_and_a_reload(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base)
    start_against_a_bot(page)
    roll(page)
    first = faces(page)
    page.click("#dice .die >> nth=4")  # the last two dice, wherever sorting would put them
    page.click("#dice .die >> nth=3")
    page.reload()  # a hold chosen but not rolled yet is kept (by the server)
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#dice .die.held').length === 2")
    assert faces(page) == first and held(page) == [False, False, False, True, True]
    roll(page)
    after = faces(page)
    assert after[3:] == first[3:] and held(page)[3:] == [True, True]
    page.reload()  # a resync shows the same row
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_function(
        "(f) => [...document.querySelectorAll('#dice .die')]"
        ".map((d) => d.dataset.face).join('') === f",
        arg=after,
    )
    assert held(page)[3:] == [True, True]


def test_a_roll_whose_message_is_lost_is_sent_again_and_rolls_once(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base)
    dropped: list[str] = []

    def route(socket: Any) -> None:
        upstream = socket.connect_to_server()

        def from_page(message: Any) -> None:
            if '"type":"roll"' in str(message).replace(" ", "") and not dropped:
                dropped.append(str(message))  # lost on the way, as on a bad network
                return
            upstream.send(message)

        socket.on_message(from_page)
        upstream.on_message(socket.send)

    page.route_web_socket("**/ws/*", route)
    start_against_a_bot(page)
    page.click("#roll")
    wait_text(page, "#rolls-left", "Rolls left: 2", timeout=TIMEOUT)  # the resend rolled
    assert len(dropped) == 1
    page.wait_for_timeout(500)
    assert "Rolls left: 2" in (page.text_content("#rolls-left") or "")  # and only once


def test_after_scoring_the_focus_rests_on_roll_while_the_others_play(
    browser: Any, server: ServerProcess
) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        made = client.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})
        host = made.json()
        assert client.post(f"/api/join/{host['invite']}", json={"name": "Bob"}).is_success
        table_id = host["table"]["id"]
        auth = {"Authorization": f"Bearer {host['token']}"}
        assert client.post(f"/api/tables/{table_id}/start", headers=auth).is_success
    page = open_page(browser, server.base)
    page.evaluate(
        "([id, token]) => localStorage.setItem('yahtzee:' + id,"
        " JSON.stringify({ seat: 0, token, name: 'Ann' }))",
        [table_id, host["token"]],
    )
    page.goto(f"{server.base}/?table={table_id}")
    page.wait_for_selector("#roll[aria-disabled='false']")
    page.focus("#roll")
    page.keyboard.press("Enter")
    page.wait_for_selector("#scorecard .propose:not(.zero)")
    page.focus("#scorecard .propose:not(.zero)")
    page.keyboard.press("Enter")
    wait_text(page, "#turn", "Bob's turn")
    focused = page.evaluate("() => document.activeElement.id")
    assert focused == "roll"  # not dropped to the page: where the game goes on
    assert page.get_attribute("#roll", "aria-disabled") == "true"
    assert "Bob is playing" in (page.text_content("#roll") or "")
    page.keyboard.press("Enter")  # pressed anyway: it says why nothing rolls
    wait_text(page, "#status", "Bob's turn")
