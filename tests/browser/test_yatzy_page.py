"""A game of Scandinavian Yatzy on the page (issue 54), as players meet it: the new-table
form offers the rule sets grouped by game with the chosen one's summary; a whole game of
rolled dice on one 320 px phone against a level-3 bot, with a hint
(the solver's Yatzy table): the card of fifteen rows laid out from the server's rules (One
Pair, Two Pairs, the 50-point upper bonus), no sideways scroll, the round of fifteen; and a
game of real dice under ``yatzy+forced``: dice entered and written, only the next box
offered.

With ``YAHTZEE_DOCS_SCREENSHOTS=1`` the docs' pictures (``docs/web-yatzy-phone-*.png``) are
written again; else they go to ``test-artifacts``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.support import (
    SLOW,
    open_page,
    play_greedy_turn,
    roll,
    score_best,
    text_of,
    wait_text,
)
from tests.browser.test_real_dice_page import enter, fill, pad_table, shot, standings, write
from tests.server_process import ServerProcess
from yahtzee.core import RuleSet, YatzyBox

PHONE_320 = (320, 640)
ROWS = "#scorecard tbody tr.upper-box, #scorecard tbody tr.lower-box"
CARD_TOTALS = """() => [...document.querySelectorAll('#scorecard tr.total.grand td')]
    .map((cell) => Number(cell.textContent))"""


def yatzy_table(page: Any, rules: str, names: list[str], *, real_dice: bool) -> str:
    """The new-table form with ``rules`` chosen (its summary shown), a seat on this phone
    for each name; started."""
    page.wait_for_selector("#rules option[value='yatzy']", state="attached")
    groups = page.eval_on_selector_all("#rules optgroup", "gs => gs.map((g) => g.label)")
    assert groups == ["Yahtzee: 13 boxes", "Yatzy: 15 boxes"], groups
    page.select_option("#rules", rules)
    assert text_of(page, "#rules-about") == RuleSet.named(rules).summary
    return pad_table(page, names, real_dice=real_dice)


def test_a_whole_yatzy_game_on_a_320_px_phone_against_a_bot(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page(browser, server.base, PHONE_320)
    page.wait_for_selector("#add-bot")
    page.click("#add-bot")  # a level-3 bot (the solver's Yatzy table) after Ann
    page.select_option("#seat-list li:last-child select", "level3")
    yatzy_table(page, "yatzy", ["Ann"], real_dice=False)
    # each row says the box's short name (the long one is for screen readers on a phone)
    labels = [row.locator("th").inner_text().split("\n")[-1] for row in page.locator(ROWS).all()]
    assert len(labels) == len(YatzyBox) == 15
    assert labels == [box.short_name for box in YatzyBox], labels
    wait_text(page, "#turn", "Round 1 of 15")
    roll(page)  # Ann's first turn: a hint from the solver's Yatzy table
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden])", timeout=SLOW)
    assert page.locator("#hint-box li").count() >= 1
    score_best(page)
    for turn in range(1, 15):  # Ann's turns (the bot plays between them)
        if turn == 7:  # mid-game, round 8: the card on the phone, light and dark
            wait_text(page, "#turn", "Round 8 of 15")
            assert page.evaluate("() => document.documentElement.scrollWidth") == PHONE_320[0]
            assert page.locator("#scorecard tr.ybonus").count() == 0  # no extra bonus
            page.set_viewport_size({"width": PHONE_320[0], "height": 1100})  # the whole card
            page.evaluate("() => window.scrollTo(0, 0)")
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                shot(page, f"web-yatzy-phone-{scheme}.png", artifacts)
            page.emulate_media(color_scheme="light")
            page.set_viewport_size({"width": PHONE_320[0], "height": PHONE_320[1]})
        play_greedy_turn(page)
    found = standings(page)
    assert len(found) == 2 and "Ann" in found, found
    highlights = text_of(page, "#highlights")
    assert "Yatzy" in highlights and "Yahtzee" not in highlights, highlights
    assert not [line for line in page.console_lines if "pageerror" in line]


def test_real_dice_in_a_yatzy_game_filled_top_to_bottom(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base, PHONE_320)
    yatzy_table(page, "yatzy+forced", ["Ann", "Bob"], real_dice=True)
    wait_text(page, "#whose", "Ann's turn")
    enter(page, "11234")
    offered = page.locator("#scorecard .propose").all()
    assert [b.get_attribute("data-box") for b in offered] == ["ones"]  # the next box only
    fill(page, "ones")
    wait_text(page, "#whose", "Bob's turn")
    page.click("#quick-toggle")
    options = page.eval_on_selector_all("#quick-box option", "os => os.map((o) => o.value)")
    assert options == ["ones"], options
    write(page, "ones", 3)
    wait_text(page, "#whose", "Ann's turn")
    enter(page, "22256")
    fill(page, "twos")
    cells = page.locator("#scorecard tr.upper-box").nth(0).locator("td").all_inner_texts()
    assert cells == ["2", "3"], cells
    assert page.evaluate("() => document.documentElement.scrollWidth") == PHONE_320[0]
