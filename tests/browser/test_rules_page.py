"""The page draws what the server says a table may be and what its cards hold
(``GET /api/rules``), asked once before anything is drawn: the new-table form's rule sets,
its seat limit and the name field's length, and the card's boxes, are the server's. An
answer that is slow leaves nothing half drawn; one that fails says so, and the page tries
again when asked."""

from __future__ import annotations

from typing import Any

from tests.browser.support import open_page, start, text_of, wait_text
from tests.server_process import ServerProcess
from yahtzee.core import MAX_NAME_LENGTH, RuleSet

RULES = "**/api/rules"


def answered_otherwise(page: Any, change: Any) -> None:
    """The page's ``GET /api/rules`` answered with the server's answer, changed by
    ``change``."""

    def route(asked: Any) -> None:
        response = asked.fetch()
        rules = response.json()
        change(rules)
        asked.fulfill(response=response, json=rules)

    page.route(RULES, route)


def offered(page: Any) -> list[str]:
    return [str(o.get_attribute("value")) for o in page.locator("#rules option").all()]


def page_errors(page: Any) -> list[str]:
    return [line for line in page.console_lines if "pageerror" in line]


def test_the_form_and_the_card_are_drawn_as_the_server_says(
    browser: Any, server: ServerProcess
) -> None:
    def change(rules: dict[str, Any]) -> None:
        rules["rule_sets"] = [
            r for r in rules["rule_sets"] if r["name"] in ("official", "no-joker")
        ]
        for rule_set in rules["rule_sets"]:
            for box in rule_set["boxes"]:
                box["label"] = f"{box['label']} (served)"
        rules["limits"].update(players=3, name=12)

    page = open_page(browser, None)
    answered_otherwise(page, change)
    page.goto(server.base)
    page.wait_for_selector("#create:not([hidden])")
    assert offered(page) == ["official", "no-joker"]  # the server's, not a list of the page's
    assert page.input_value("#rules") == "official"
    assert page.get_attribute("#host-name", "maxlength") == "12"
    page.fill("#host-name", "Ann")
    page.wait_for_selector("#add-bot:not([disabled])")  # the bots are in
    for seats in (1, 2):
        page.click("#add-bot")
        page.wait_for_function(
            "n => document.querySelectorAll('#seat-list li').length === n", arg=seats
        )
    assert page.is_disabled("#add-bot") and page.is_disabled("#add-human")  # 3 at most
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])")
    start(page)
    page.wait_for_selector("#roll[aria-disabled='false']")
    wait_text(page, "#scorecard", "Aces (served)")
    heads = page.locator("#scorecard tbody th .long").all_text_contents()
    boxes = [h for h in heads if h.endswith("(served)")]
    assert boxes[0] == "Aces (served)" and boxes[-1] == "Chance (served)" and len(boxes) == 13
    assert page_errors(page) == []


def test_a_slow_answer_draws_nothing_half_and_a_failed_one_is_tried_again(
    browser: Any, server: ServerProcess
) -> None:
    held: list[Any] = []
    page = open_page(browser, None)
    page.route(RULES, lambda asked: held.append(asked))  # noqa: PLW0108 (a bound builtin is no handler)
    page.goto(server.base)
    wait_text(page, "#turn", "Loading...")  # said once the answer is slow (0.5 s)
    assert held and not page.is_visible("#create") and not page.is_visible("#daily")
    held[0].continue_()
    page.wait_for_selector("#create:not([hidden])")
    assert offered(page) == list(RuleSet.names())
    assert page.get_attribute("#host-name", "maxlength") == str(MAX_NAME_LENGTH)
    assert text_of(page, "#turn") != "Loading..."
    assert page_errors(page) == []

    failing = open_page(browser, None)
    failing.route(RULES, lambda asked: asked.fulfill(status=500, json={"message": "Down."}))
    failing.goto(server.base)
    wait_text(failing, "#banner-text", "could not load the game's rules from the server: Down.")
    assert not failing.is_visible("#create")
    failing.unroute(RULES)
    failing.click("#load-again")
    failing.wait_for_selector("#create:not([hidden])")
    assert offered(failing) == list(RuleSet.names())
    assert page_errors(failing) == []
