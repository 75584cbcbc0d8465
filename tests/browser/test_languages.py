"""The page in the player's language (issue 55): chosen by the address's ``?lang=`` (then
remembered), else the picker's remembered choice, else the browser's languages, else
English; the languages are the server's (``GET /api/i18n/{code}``); the cookie ``lang``
tells the server; the page's own text (``data-i18n``) and the modules' (``t()``) are
translated before the first screen is drawn; a catalog that does not come leaves the page
in English.

The catalogs here are a small fake one (``page.route``), so that these tests say what the
page does whatever the translators have written: one string of index.html ("Where to
play", marked ``data-i18n``) and one of lobby.js (the top bar's line, by ``t()``)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import unquote

from tests.browser.support import open_page, text_of, wait_text
from tests.server_process import ServerProcess

CATALOGS = "**/api/i18n/*"
LANGUAGES = [
    {"code": "en", "name": "English"},
    {"code": "de", "name": "Deutsch"},
    {"code": "sv", "name": "Svenska"},
    {"code": "nb", "name": "Norsk bokmål"},
]
MESSAGES = {
    "de": {
        "Where to play": "Wo spielen",
        "Online tables for friends and bots": "Online-Tische für Freunde und Bots",
    },
    "sv": {
        "Where to play": "Var spela",
        "Online tables for friends and bots": "Bord på nätet för vänner och bottar",
    },
}
ONLINE_EN = "Online tables for friends and bots"


def served(page: Any) -> list[str]:
    """The catalogs are answered as the server answers them (an unknown code: English,
    never an error); the codes asked for are kept, in order."""
    asked: list[str] = []

    def route(request: Any) -> None:
        code = unquote(request.request.url.rsplit("/", 1)[-1])
        asked.append(code)
        known = code if code in {entry["code"] for entry in LANGUAGES} else "en"
        body = {"language": known, "languages": LANGUAGES, "messages": MESSAGES.get(known, {})}
        request.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(CATALOGS, route)
    return asked


def opened(browser: Any, base: str, address: str = "/", **options: Any) -> tuple[Any, list[str]]:
    page = open_page(browser, None, **options)
    asked = served(page)
    page.goto(base + address)
    page.wait_for_selector("#create:not([hidden])")
    return page, asked


def lang_cookie(page: Any) -> str | None:
    found = [c["value"] for c in page.context.cookies() if c["name"] == "lang"]
    return found[0] if found else None


def stored(page: Any) -> Any:
    return page.evaluate("() => localStorage.getItem('yahtzee:lang')")


def where_legend(page: Any) -> str:
    return text_of(page, "#create-form fieldset.where legend").strip()


def test_the_browser_language_is_spoken(browser: Any, server: ServerProcess) -> None:
    page, asked = opened(browser, server.base, locale="de-DE")
    assert page.get_attribute("html", "lang") == "de"
    assert lang_cookie(page) == "de"
    assert where_legend(page) == "Wo spielen"  # index.html's, marked data-i18n
    wait_text(page, "#turn", "Online-Tische für Freunde und Bots")  # lobby.js's, by t()
    assert page.input_value("#lang-create") == "de"
    picked = page.locator("#lang-create option:checked")
    assert picked.text_content() == "Deutsch"
    names = [o.text_content() for o in page.locator("#lang-create option").all()]
    assert names == [entry["name"] for entry in LANGUAGES]  # the server's list, native names
    assert page.locator("#lang-create").bounding_box()["height"] >= 44
    assert asked == ["de"]  # the first guess was right: one request
    # the English of a marked element is kept: translated again, it is not lost
    legend = "#create-form fieldset.where legend"
    assert page.get_attribute(legend, "data-i18n-en") == "Where to play"


def test_the_address_wins_over_the_browser_and_is_remembered(
    browser: Any, server: ServerProcess
) -> None:
    page, _asked = opened(browser, server.base, "/?lang=sv", locale="de-DE")
    assert page.get_attribute("html", "lang") == "sv"
    assert lang_cookie(page) == "sv"
    assert where_legend(page) == "Var spela"
    assert page.input_value("#lang-create") == "sv"
    assert stored(page) == "sv"
    page.goto(server.base + "/")  # the address says nothing now: the choice is remembered
    page.wait_for_selector("#create:not([hidden])")
    assert page.get_attribute("html", "lang") == "sv"
    assert where_legend(page) == "Var spela"


def test_a_language_not_spoken_is_english(browser: Any, server: ServerProcess) -> None:
    page, asked = opened(browser, server.base, "/?lang=xx", locale="de-DE")
    assert page.get_attribute("html", "lang") == "en"
    assert lang_cookie(page) == "en"
    assert where_legend(page) == "Where to play"
    wait_text(page, "#turn", ONLINE_EN)
    assert page.input_value("#lang-create") == "en"
    assert len(asked) <= 2


def test_norwegian_is_bokmal_and_an_unknown_browser_language_falls_through(
    browser: Any, server: ServerProcess
) -> None:
    page, asked = opened(browser, server.base, locale="nn-NO")
    assert page.get_attribute("html", "lang") == "nb"
    page.close()
    page, asked = opened(browser, server.base, locale="ja-JP")  # not ours: English
    assert page.get_attribute("html", "lang") == "en"
    assert asked == ["ja"]  # the first guess, answered in English: no second request


def test_the_pickers_choice_is_remembered_across_reloads(
    browser: Any, server: ServerProcess
) -> None:
    page, _asked = opened(browser, server.base, locale="de-DE")
    assert page.get_attribute("html", "lang") == "de"
    with page.expect_navigation():
        page.select_option("#lang-create", "sv")  # the page opens again in Swedish
    page.wait_for_selector("#create:not([hidden])")
    assert page.get_attribute("html", "lang") == "sv"
    assert stored(page) == "sv"
    assert lang_cookie(page) == "sv"
    assert where_legend(page) == "Var spela"
    page.reload()
    page.wait_for_selector("#create:not([hidden])")
    assert page.get_attribute("html", "lang") == "sv"
    assert page.input_value("#lang-create") == "sv"
    page.goto(server.base + "/?account")  # another screen: the picker at the foot
    page.wait_for_selector("#account:not([hidden])")
    assert page.locator("#lang-foot").is_visible()
    assert page.input_value("#lang-foot") == "sv"


def test_no_catalog_is_english_at_once(browser: Any, server: ServerProcess) -> None:
    """A catalog that cannot be had (offline without a kept copy): English, and the page
    is drawn; no picker (the languages are the server's word)."""
    page = open_page(browser, None, locale="de-DE")
    page.route(CATALOGS, lambda request: request.abort())
    page.goto(server.base)
    page.wait_for_selector("#create:not([hidden])")
    assert page.get_attribute("html", "lang") == "en"
    assert where_legend(page) == "Where to play"
    wait_text(page, "#turn", ONLINE_EN)
    assert page.locator("#lang-create").is_hidden()
