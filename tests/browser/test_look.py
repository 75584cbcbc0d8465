"""How the page looks and feels: phone and desktop layouts, drawn dice and their roll,
proposals against filled boxes, the bonus bar, a colour per player, the "your turn" signal."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SLOW,
    create_table,
    join,
    open_page,
    roll,
    score_best,
    scripted,
    start,
    text_of,
    wait_text,
)
from tests.server_process import ServerProcess


def on_screen(page: Any, selector: str, size: tuple[int, int]) -> bool:
    box = page.locator(selector).bounding_box()
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size[0]
        and box["y"] + box["height"] <= size[1]
    )


def test_a_phone_keeps_the_turn_and_the_dice_on_screen_and_four_cards_fit(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base, PHONE)
    create_table(page, bots=(1, 2, 3))
    start(page)
    roll(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    assert page.locator("#scorecard thead th.player").count() == 4
    assert on_screen(page, "#scorecard thead", PHONE)  # four players' columns, no sideways
    assert page.locator("#play .cards").evaluate("(e) => e.scrollWidth <= e.clientWidth")
    for y in ("document.body.scrollHeight / 2", "document.body.scrollHeight"):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        for selector in ("#turn", "#dice", "#roll"):
            assert on_screen(page, selector, PHONE), (selector, y)
    total = page.locator("#scorecard tr.grand").bounding_box()
    tray = page.locator("#tray").bounding_box()
    assert total is not None and tray is not None
    assert total["y"] + total["height"] <= tray["y"]  # the bar never hides the card's end
    die = page.locator("#dice .die").first.bounding_box()
    assert die is not None and die["width"] >= 52  # big enough for a thumb


def test_the_desktop_puts_the_card_beside_the_dice_and_the_advisor(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base, DESKTOP)
    create_table(page, bots=(1, 2, 3))
    start(page)
    roll(page)
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden])", timeout=SLOW)
    card = page.locator("#scorecard").bounding_box()
    tray = page.locator("#tray").bounding_box()
    hint = page.locator("#hint-box").bounding_box()
    assert card is not None and tray is not None and hint is not None
    assert card["x"] >= tray["x"] + tray["width"] and card["x"] >= hint["x"] + hint["width"]
    assert card["y"] + card["height"] <= DESKTOP[1]  # the whole card above the fold
    die = page.locator("#dice .die").first.bounding_box()
    assert die is not None and die["width"] >= 64
    # The best boxes for the roll stand out, zeros are quiet, filled boxes are plain text;
    # a bar per player for the upper bonus.
    looks = page.evaluate(
        """() => Object.fromEntries(['.propose.best', '.propose:not(.best):not(.zero)',
              '.propose.zero'].map((s) => { const e = document.querySelector('#scorecard ' + s);
              if (!e) return [s, null]; const c = getComputedStyle(e);
              return [s, [c.backgroundColor, c.borderTopStyle, Number(c.fontWeight)]]; }))"""
    )
    best, plain, zero = looks.values()  # which there are depends on the roll
    assert best is None or plain is None or best[0] != plain[0]
    assert zero is None or plain is None or (zero[1] == "dotted" and zero[2] < plain[2])
    assert page.locator("#scorecard tr.upper progress").count() == 4
    colours = page.locator("#scorecard th.player").evaluate_all(
        "(cells) => cells.map((c) => getComputedStyle(c).borderTopColor)"
    )
    assert len(set(colours)) == 4  # a colour per player
    score_best(page)
    style = page.evaluate(  # one task: no redraw between finding the cell and reading it
        "() => { const s = getComputedStyle(document.querySelector('#scorecard td.filled'));"
        " return [s.borderTopStyle, Number(s.fontWeight)]; }"
    )
    assert style[0] != "dashed" and style[1] >= 700
    bars = page.evaluate(
        "() => [...document.querySelectorAll('#scorecard tr.upper td')].map((c) =>"
        " [c.querySelector('progress').value, c.querySelector('.sub').textContent])"
    )
    assert [value for value, _ in bars] == [min(int(t.split("/")[0]), 63) for _, t in bars]
    assert all(t.endswith("/63") for _, t in bars)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_dice_are_drawn_and_tumble_unless_motion_is_reduced(
    browser: Any, server: ServerProcess, motion: str
) -> None:
    page = open_page(browser, None, reduced_motion=motion)
    page.context.add_init_script(
        "document.addEventListener('animationstart',"
        " () => { window.animations = (window.animations || 0) + 1; }, true);"
    )
    page.goto(server.base)
    create_table(page)
    start(page)
    roll(page)
    page.wait_for_timeout(700)
    pips = page.locator("#dice .die").first.locator("circle.pip").count()
    assert 1 <= pips <= 6  # a drawn die, pips and all
    animations = page.evaluate("() => window.animations || 0")
    assert (animations >= 5) if motion == "no-preference" else (animations == 0)
    page.click("#dice .die >> nth=0")
    page.wait_for_timeout(300)  # the lift's transition
    held = page.locator("#dice .die").first.bounding_box()
    free = page.locator("#dice .die").nth(1).bounding_box()
    assert held is not None and free is not None and held["y"] < free["y"]  # lifted


BUZZ = (
    "Object.defineProperty(navigator, 'vibrate',"
    " { value: () => { window.buzzed = (window.buzzed || 0) + 1; return true; } });"
)


def test_your_turn_shows_in_the_title_and_buzzes(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, None)
    ann.context.add_init_script(BUZZ)
    ann.goto(server.base)
    invite = create_table(ann, friends=1)
    bob = open_page(browser, None)
    bob.context.add_init_script(BUZZ)
    bob.goto(invite)
    bob.fill("#join-name", "Bob")
    bob.click("#join-table")
    bob.wait_for_selector("#lobby:not([hidden])")
    start(ann)
    ann.wait_for_function("() => document.title.startsWith('Your turn')")
    assert bob.title() == "Yahtzee"
    assert ann.evaluate("() => window.buzzed || 0") == 1
    roll(ann)
    score_best(ann)
    bob.wait_for_function("() => document.title.startsWith('Your turn')")
    wait_text(bob, "#turn", "your turn")
    assert bob.evaluate("() => window.buzzed || 0") == 1
    assert ann.title() == "Yahtzee" and "Bob's turn" in text_of(ann, "#turn")


def test_a_late_spectator_on_a_phone_sees_the_game(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    watch = ann.input_value("#watch-link")
    join(browser, invite, "Bob")
    start(ann)
    roll(ann)
    fan = open_page(browser, watch, PHONE)
    fan.wait_for_selector("#play:not([hidden])")
    wait_text(fan, "#turn", "Ann's turn")
    assert fan.locator("#roll").is_hidden() and fan.locator("#hint").is_hidden()
    assert fan.locator("#scorecard .propose").count() == 0  # Ann's proposals, not buttons
    assert fan.locator("#scorecard .proposal").count() >= 1


BOX_KEYS = (
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
    "full_house", "small_straight", "large_straight", "yahtzee", "chance",
)  # fmt: skip

CONTRAST = """(e) => {
    const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    let node = e, back = [255, 255, 255];
    while (node && node.nodeType === 1) {
        const c = rgb(getComputedStyle(node).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] > 0)) { back = c; break; }
        node = node.parentElement;
    }
    const [hi, lo] = [lum(rgb(getComputedStyle(e).color)), lum(back)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
}"""


def scorecard(boxes: dict[str, int | None], upper: int) -> dict[str, Any]:
    return {
        "boxes": boxes, "yahtzee_bonus": 0, "upper_subtotal": upper, "upper_bonus": 0,
        "lower_total": 0, "total": upper,
    }  # fmt: skip


def joker_state() -> dict[str, Any]:
    """Ann has a Yahtzee and Fives filled and throws five 5s again: every lower box is a
    Joker box, each with the 100-point bonus."""
    ann: dict[str, int | None] = dict.fromkeys(BOX_KEYS)
    ann.update(yahtzee=50, fives=15, chance=22)
    bot: dict[str, int | None] = dict.fromkeys(BOX_KEYS)
    bot.update(sixes=24, full_house=25)
    lower = {"three_of_a_kind": 25, "four_of_a_kind": 25, "full_house": 25,
             "small_straight": 30, "large_straight": 40}  # fmt: skip
    seats = [
        {"seat": 0, "name": "Ann", "bot": None, "open": False, "connected": True},
        {"seat": 1, "name": "Bot 2 (level 3)", "bot": "level3", "open": False, "connected": False},
    ]
    return {
        "v": 1, "type": "state", "seq": 9, "chat": [], "turn_deadline": None, "spectators": 0,
        "win_chances": None, "meter_progress": None, "upper_bonus_threshold": 63,
        "table": {"id": "t1", "rules": "official", "hints_allowed": True, "turn_timer": None,
                  "status": "playing", "seats": seats},
        "you": {"seat": 0, "role": "player"},
        "game": {
            "phase": "turn", "players": ["Ann", "Bot 2 (level 3)"], "current": 0, "round": 4,
            "dice": "55555", "rolls_left": 2, "kept": "-",
            "cards": [scorecard(ann, 15), scorecard(bot, 24)],
            "placements": [
                {"box": box, "name": box, "points": points, "yahtzee_bonus": 100, "joker": True}
                for box, points in lower.items()
            ],
            "winners": [], "standings": None,
        },
    }  # fmt: skip


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_joker_marker_and_the_proposals_reach_contrast(
    browser: Any, server: ServerProcess, scheme: str
) -> None:
    page = open_page(browser, server.base, scheme=scheme)
    page.evaluate("() => localStorage.setItem('yahtzee:t1', JSON.stringify({seat: 0, token: 'k'}))")
    state = json.dumps(joker_state())

    def route(socket: Any) -> None:
        scripted(socket)
        socket.send(state)

    page.route_web_socket(re.compile(r".*/ws/.*"), route)
    page.goto(f"{server.base}/?table=t1")
    page.wait_for_selector("#scorecard .joker")
    assert page.locator("#scorecard .joker").count() == 5
    for selector in ("#scorecard .joker", "#scorecard .propose", "#scorecard td.filled"):
        for ratio in page.locator(selector).evaluate_all(f"(all) => all.map({CONTRAST})"):
            assert ratio >= 4.5, (selector, scheme, ratio)
    page.locator("#scorecard .propose").first.focus()  # the focused proposal, filled in
    ratio = page.locator("#scorecard .propose .joker").first.evaluate(CONTRAST)
    assert ratio >= 4.5, ("focused joker", scheme, ratio)
