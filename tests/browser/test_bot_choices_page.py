"""The new-table form offers the server's bots (the winning bot and the optimal one among
them, each with a line saying what it does); a table of both plays on a real
``yahtzee serve`` with empty caches. The waiting room says who is where only where it is
true (no "on this phone" on a desktop), and the game shows the dice's commitment out of
the way: in a closed "Fair dice" disclosure below the card, the whole hash inside."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.browser.support import (
    DESKTOP,
    axe_path,
    axe_violations,
    create_table,
    join,
    open_page,
    roll,
    score_best,
    start,
    table_id,
    text_of,
    wait_text,
    with_axe,
)
from tests.server_process import ServerProcess

PHONE_390 = (390, 844)


def about_line(page: Any, seat_index: int) -> str:
    """The line under a bot seat's choice, found by the select's aria-describedby."""
    select = page.locator("#seat-list li").nth(seat_index).locator("select")
    described = select.get_attribute("aria-describedby") or ""
    return text_of(page, f"#{described}")


def test_a_table_of_a_winning_and_an_optimal_bot_starts_and_the_bots_move(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, None)
    with_axe(page, axe_path())
    page.goto(server.base)
    page.fill("#host-name", "Ann")
    page.click("#add-bot")
    choices = page.locator("#seat-list li select option")
    names = choices.all_text_contents()
    assert "Winning" in names and "Optimal" in names, names
    assert [o.get_attribute("value") for o in choices.all()] == [
        b["bot"] for b in httpx.get(f"{server.base}/api/bots", timeout=10).json()["bots"]
    ]  # the server's list, in its order
    assert about_line(page, 0).startswith("Level 3: ")  # the default bot, said as chosen
    page.select_option("#seat-list li:last-child select", "winning")
    assert about_line(page, 0) == "Winning: plays for the best chance to finish first"
    page.click("#add-bot")
    page.wait_for_function("() => document.querySelectorAll('#seat-list li').length === 2")
    page.select_option("#seat-list li:last-child select", "optimal")
    assert about_line(page, 1).startswith("Optimal: plays for the most points")
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found.extend(axe_violations(page, f"the form with two bots, {scheme}"))
    assert not found, "\n".join(found)
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])")
    wait_text(page, "#lobby-seats", "bot, winning")
    wait_text(page, "#lobby-seats", "bot, optimal")
    lobby = httpx.get(f"{server.base}/api/tables/{table_id(page)}", timeout=10).json()
    assert [s["bot"] for s in lobby["seats"]] == [None, "winning", "optimal"]
    start(page)
    page.wait_for_selector("#roll[aria-disabled='false']")
    roll(page)
    score_best(page)
    # both bots play their first turn (the winning bot by its fallback: no tables built),
    # then it is Ann's again
    wait_text(page, "#turn", "Round 2 of 13: your turn")
    for seat, what in ((1, "winning"), (2, "optimal")):
        chip = page.locator("#players .chip").nth(seat)
        assert text_of(page, f"#players .chip:nth-child({seat + 1}) .who") == f"Bot {seat + 1}"
        assert what in (chip.locator(".state").text_content() or "")
    assert page.locator("#scorecard td.filled").count() >= 3  # a box filled by each
    errors = [line for line in page.console_lines if "pageerror" in line]
    assert errors == []


def test_the_host_hands_a_seat_whose_player_left_to_the_winning_bot(
    browser: Any, server: ServerProcess
) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    bob = join(browser, invite, "Bob")
    start(ann)
    bob.context.close()  # Bob leaves
    ann.wait_for_selector("#host-tools:not([hidden]) select")
    select = ann.locator("#host-tools select")
    assert "Winning" in select.locator("option").all_text_contents()
    assert select.input_value() == "level3"  # the server's default
    select.select_option("winning")
    ann.click("#host-tools button")
    ann.wait_for_selector("#host-tools", state="hidden")
    lobby = httpx.get(f"{server.base}/api/tables/{table_id(ann)}", timeout=10).json()
    assert lobby["seats"][1]["bot"] == "winning"
    wait_text(ann, "#players", "bot, winning")


def table_against_a_bot(browser: Any, server: ServerProcess) -> Any:
    """Ann's page (a desktop) in the waiting room of a table against the default bot."""
    page = open_page(browser, server.base, DESKTOP)
    page.fill("#host-name", "Ann")
    page.click("#add-bot")
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])")
    return page


def test_the_seat_line_on_a_desktop_says_no_phone(browser: Any, server: ServerProcess) -> None:
    page = table_against_a_bot(browser, server)
    own = page.locator("#lobby-seats li.me .what")
    assert own.text_content() == "host, you"  # one seat on this device: no phone, no device


def test_the_commitment_waits_in_a_closed_disclosure_below_the_card(
    browser: Any, server: ServerProcess
) -> None:
    page = table_against_a_bot(browser, server)
    start(page)
    fair = page.locator("#fair-dice")
    fair.wait_for(state="visible")
    assert fair.get_attribute("open") is None  # closed: the hash is not in the way
    assert not page.locator("#committed").is_visible()
    assert "committed" not in text_of(page, "#players").lower()
    for size in (DESKTOP, PHONE_390):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_timeout(100)  # the card is drawn again for the width
        card = page.locator("#scorecard").bounding_box()
        below = fair.bounding_box()
        assert card is not None and below is not None
        assert below["y"] >= card["y"] + card["height"], (size, card, below)
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.click("#fair-dice summary")
    page.locator("#committed").wait_for(state="visible")
    assert re.fullmatch(r"[0-9a-f]{64}", text_of(page, "#committed"))
    lobby = httpx.get(f"{server.base}/api/tables/{table_id(page)}", timeout=10).json()
    assert text_of(page, "#committed") == lobby["commitment"]  # the whole hash, to check
