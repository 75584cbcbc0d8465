"""Playing on the page: the held dice, the advisor, the chat, bots' levels, the timer, the
waiting room, the end of the game and the rematch, and a whole game from the keyboard."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from tests.browser.support import (
    PHONE,
    SLOW,
    create_table,
    faces,
    game_over,
    held,
    join,
    open_page,
    roll,
    score_best,
    start,
    table_id,
    text_of,
    wait_text,
)
from tests.server_process import ServerProcess


def test_held_dice_survive_chat_presence_and_the_lobby(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    bob = join(browser, invite, "Bob")
    watch = ann.input_value("#watch-link")
    start(ann)
    roll(ann)
    ann.click("#dice .die >> nth=0")
    ann.click("#dice .die >> nth=2")
    assert held(ann) == [True, False, True, False, False]
    bob.fill("#chat-text", "nice dice")
    bob.click("#send")
    wait_text(ann, "#chat-log", "nice dice")
    fan = open_page(browser, watch)  # a spectator comes: presence
    fan.wait_for_selector("#play:not([hidden])")
    bob.reload()  # Bob goes and comes back: presence twice
    bob.wait_for_selector("#play:not([hidden])")
    ann.wait_for_timeout(500)
    assert held(ann) == [True, False, True, False, False]
    kept = "".join(sorted(faces(ann)[i] for i in (0, 2)))
    roll(ann)  # a new roll: the dice it kept stay held, nothing else
    now = faces(ann)
    held_faces = "".join(sorted(f for f, h in zip(now, held(ann), strict=True) if h))
    assert held_faces == kept


def test_a_double_click_on_roll_rolls_once(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    create_table(ann)
    start(ann)
    # A person's double click: the first roll is back before the second click comes.
    ann.click("#roll", click_count=2, delay=150)
    wait_text(ann, "#rolls-left", "Rolls left: 2")
    ann.click("#dice .die >> nth=0")
    ann.click("#roll", click_count=2, delay=150)
    wait_text(ann, "#rolls-left", "Rolls left: 1")
    ann.wait_for_timeout(500)  # a second roll would have come back by now
    assert text_of(ann, "#rolls-left") == "Rolls left: 1"


def test_the_advisor_is_cleared_when_the_dice_change_and_never_shown_to_others(
    browser: Any, server: ServerProcess
) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1)
    bob = join(browser, invite, "Bob")
    start(ann)
    roll(ann)
    ann.click("#hint")
    ann.wait_for_selector("#hint-box:not([hidden])", timeout=SLOW)
    assert ann.locator("#hint-box li").count() >= 1
    ann.click("#dice .die >> nth=0")  # holding a die changes nothing the advice is about
    assert ann.locator("#hint-box").is_visible()
    roll(ann)
    assert ann.locator("#hint-box").is_hidden()
    ann.click("#hint")
    ann.wait_for_selector("#hint-box:not([hidden])", timeout=SLOW)
    score_best(ann)
    assert ann.locator("#hint-box").is_hidden()
    wait_text(bob, "#turn", "your turn")
    assert ann.is_disabled("#hint") and ann.locator("#hint-box").is_hidden()
    assert bob.locator("#hint-box").is_hidden()


def test_chat_history_survives_a_reload_and_long_words_wrap(
    browser: Any, server: ServerProcess
) -> None:
    ann = open_page(browser, server.base, PHONE)
    invite = create_table(ann, friends=1)
    bob = join(browser, invite, "Bob", PHONE)
    word = "W" * 200
    for line in ("hello", word):
        bob.fill("#chat-text", line)
        bob.click("#send")
        wait_text(ann, "#chat-log", line)
    ann.reload()
    wait_text(ann, "#chat-log", word)
    assert text_of(ann, "#chat-log").index("hello") < text_of(ann, "#chat-log").index(word)
    log = ann.locator("#chat-log")
    assert log.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    fan = open_page(browser, ann.input_value("#watch-link"), PHONE)
    wait_text(fan, "#chat-log", word)  # spectators read it, from the state message
    assert fan.locator("#chat-form").is_hidden() and fan.locator("#chat-note").is_visible()


def test_each_bot_gets_the_level_chosen_for_its_seat(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    create_table(ann, bots=(1, 5))
    lobby = httpx.get(f"{server.base}/api/tables/{table_id(ann)}", timeout=10).json()
    assert [s["bot"] for s in lobby["seats"]] == [None, "level1", "level5"]
    seats = text_of(ann, "#lobby-seats")
    assert "level 1" in seats and "level 5" in seats


def test_guests_are_told_that_the_host_starts(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=2)
    bob = join(browser, invite, "Bob")
    assert "host (Ann) starts the game" in text_of(bob, "#lobby-note")
    carl = join(browser, invite, "Carl")
    for guest in (bob, carl):
        wait_text(guest, "#lobby-note", "waiting for the host (Ann) to start the game")
        assert guest.locator("#start").is_hidden()
    wait_text(ann, "#lobby-note", "start the game when you are ready")
    assert ann.is_enabled("#start")


def test_the_turn_timer_counts_down(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann, friends=1, timer="30")
    bob = join(browser, invite, "Bob")
    start(ann)
    for page in (ann, bob):
        page.wait_for_selector("#timer:not([hidden])")
    first = text_of(bob, "#timer")
    assert re.fullmatch(r"0:[0-3]\d", first), first
    time.sleep(2.2)
    later = text_of(bob, "#timer")
    assert int(later.split(":")[1]) < int(first.split(":")[1])
    roll(ann)  # each decision has its 30 s
    assert int(text_of(ann, "#timer").split(":")[1]) >= 28


def test_the_end_review_for_spectators_and_a_rematch(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    create_table(ann, bots=(2,))
    fan = open_page(browser, ann.input_value("#watch-link"))
    fan.wait_for_selector("#lobby:not([hidden])")
    start(ann)
    for _ in range(13):
        ann.wait_for_function(
            "() => document.getElementById('roll').getAttribute('aria-disabled') === 'false'"
            " || !document.getElementById('over').hidden"
        )
        if game_over(ann):
            break
        ann.click("#roll")
        score_best(ann)
    for page in (ann, fan):
        page.wait_for_selector("#over:not([hidden])")
        assert page.locator("#play").is_hidden()
        assert page.locator("#standings li").count() == 2
        assert page.locator("#final-card thead th.player").count() == 2  # every card
        assert page.locator("#highlights li").count() == 2
        assert "Yahtzee" in text_of(page, "#highlights")
        page.wait_for_selector("#review:not([hidden]) section", timeout=SLOW)
        headings = [h.strip() for h in page.locator("h1, h2").all_text_contents()]
        assert len(headings) == len(set(headings)), headings  # no heading twice
    assert fan.locator("#rematch").is_hidden() and fan.locator("#chat-form").is_hidden()
    old = table_id(ann)
    ann.click("#rematch")
    ann.wait_for_selector("#lobby:not([hidden])")
    assert table_id(ann) != old
    assert "level 2" in text_of(ann, "#lobby-seats")
    ann.wait_for_selector("#start:enabled")


def tab_to(page: Any, selector: str, limit: int = 60) -> int:
    """Press Tab until the focused element matches ``selector``; the number of presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) || false", selector):
            return presses
    raise AssertionError(f"Tab never reached {selector}")


def focused(page: Any) -> str:
    """The focused element's ``data-focus`` key, else its id, else its tag."""
    return str(
        page.evaluate(
            "() => { const a = document.activeElement;"
            " return a?.dataset?.focus || a?.id || a?.tagName; }"
        )
    )


def test_a_whole_game_from_the_keyboard(browser: Any, server: ServerProcess) -> None:
    page = open_page(browser, server.base)
    tab_to(page, "#host-name")
    page.keyboard.type("Kim")
    tab_to(page, "#create-table")
    page.keyboard.press("Enter")
    page.wait_for_selector("#lobby:not([hidden])")
    tab_to(page, "#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play:not([hidden])")
    assert focused(page) == "roll"  # Start is gone: focus goes where the game goes on
    for round_ in range(1, 14):
        wait_text(page, "#turn", f"Round {round_} of 13")
        if focused(page) != "roll":
            tab_to(page, "#roll")
        page.keyboard.press("Enter")
        wait_text(page, "#rolls-left", "Rolls left: 2")
        assert focused(page) == "roll"
        tab_to(page, "#dice .die:nth-child(1)")
        page.keyboard.press("Space")
        page.wait_for_selector("#dice .die:nth-child(1)[aria-pressed='true']")
        assert focused(page) == "die-0"  # still on the die just toggled
        page.keyboard.press("Tab")
        assert focused(page) == "die-1"  # the next Tab goes on from there
        page.keyboard.press("Space")
        assert focused(page) == "die-1"
        assert tab_to(page, "#roll") <= 4
        page.keyboard.press("Enter")
        wait_text(page, "#rolls-left", "Rolls left: 1")
        assert focused(page) == "roll"
        tab_to(page, "#scorecard .propose")
        box = focused(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(b) => !document.querySelector(`[data-focus='${b}']`)"
            " || !document.getElementById('over').hidden",
            arg=box,
        )
        if round_ < 13:
            wait_text(page, "#turn", f"Round {round_ + 1} of 13")
            assert focused(page) == "roll"  # the box is filled: focus goes to the next roll
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("#standings li").count() == 1
