"""The page with the real catalogs, as a German and a Swedish player meet it: the browser's
language is spoken from the first screen (the new-table form, its buttons, the rule sets'
words from the server), a game against a bot on a 320 px phone shows the card with the
printed cards' names (Kniffel's in German, the Swedish Yatzy block's in Swedish), every
row and button fits (no sideways scroll, buttons at least 44 px high), and a refusal of
the server comes in the player's language.

With ``YAHTZEE_DOCS_SCREENSHOTS=1`` the docs' pictures (``docs/web-{de,sv}-phone.png``, the
game, and ``docs/web-{de,sv}-new-game-phone.png``, the new-table form) are written again;
else they go to ``test-artifacts``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import open_page, roll, text_of
from tests.browser.test_real_dice_page import pad_table, shot
from tests.server_process import ServerProcess
from yahtzee.core import Category, YatzyBox
from yahtzee.core import language as lang

PHONE_320 = (320, 640)
PHONE = (390, 844)
ROWS = "#scorecard tbody tr.upper-box, #scorecard tbody tr.lower-box"
ROW_NAMES = """rows => rows.map((row) =>
    row.querySelector('th').innerText.split('\\n').at(-1).trim())"""
WIDER_THAN_SCREEN = "() => document.documentElement.scrollWidth > window.innerWidth"
SHORT_BUTTONS = """() => [...document.querySelectorAll('button, select')]
    .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < 44)
    .map((b) => b.id || b.className || b.textContent)"""


def said(code: str, message: str) -> str:
    with lang.speaking(code):
        return lang._(message)


SPOKEN = {
    # a browser's language: the rule set played, box names as the printed cards have them
    "de-DE": ("official", ["Einser", "Dreierpasch", "Kleine Straße", "Kniffel"]),
    "sv-SE": ("yatzy", ["Ettor", "Ett par", "Två par", "Kåk", "Chans"]),
}


@pytest.mark.parametrize("locale", sorted(SPOKEN))
def test_a_game_in_the_browsers_language(
    browser: Any, server: ServerProcess, artifacts: Path, locale: str
) -> None:
    code = locale[:2]
    rules, boxes = SPOKEN[locale]
    for size in (PHONE_320, PHONE):
        page = open_page(browser, server.base, size, locale=locale)
        page.wait_for_selector("#create:not([hidden])")
        assert page.get_attribute("html", "lang") == code
        legend = text_of(page, "#create-form fieldset.where legend").strip()
        assert legend == said(code, "Where to play") != "Where to play"
        assert page.input_value("#lang-create") == code
        page.wait_for_selector(f"#rules option[value='{rules}']", state="attached")
        page.select_option("#rules", rules)
        page.click("#add-bot")
        assert not page.evaluate(WIDER_THAN_SCREEN), f"{code} at {size}: the form scrolls sideways"
        if size == PHONE:
            shot(page, f"web-{code}-new-game-phone.png", artifacts, full_page=True)
        pad_table(page, [{"de": "Anna", "sv": "Sven"}[code]], real_dice=False)
        roll(page)
        names = page.eval_on_selector_all(ROWS, ROW_NAMES)  # the short name, on a phone
        edition = list(Category) if rules == "official" else list(YatzyBox)
        assert len(names) == len(edition)
        with lang.speaking(code):
            assert names == [box.short_name for box in edition], names
            long_names = [box.display_name for box in edition]
        for box in boxes:
            assert box in long_names
        assert not page.evaluate(WIDER_THAN_SCREEN), f"{code} at {size}: sideways scroll"
        assert page.evaluate(SHORT_BUTTONS) == [], f"{code} at {size}: buttons under 44 px"
        if size == PHONE:
            shot(page, f"web-{code}-phone.png", artifacts)
        page.context.close()


def test_a_refusal_of_the_server_in_german(browser: Any, server: ServerProcess) -> None:
    page = open_page(browser, server.base, locale="de-DE")
    page.wait_for_selector("html[lang='de']", state="attached")
    status, body = page.evaluate(
        """async () => {
            const r = await fetch('/api/tables/nope');
            return [r.status, await r.json()];
        }"""
    )
    assert status == 404
    assert body == {"code": "no_table", "message": said("de", "No such table (or it has ended).")}
    assert body["message"] != "No such table (or it has ended)."
    page.context.close()
