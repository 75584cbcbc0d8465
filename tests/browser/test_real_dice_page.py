"""The page as a pad at a table of real dice (issue 27), as players meet it: one phone
passed around three players (each seat added on it in the waiting room), each entering the
dice showing on the face picker and filling a box on the card, a Yahtzee, a Joker and the
Yahtzee bonus among them; quick score entry, an impossible score refused; and a sitting of
three games in columns, its running totals the sums of the games.

With ``YAHTZEE_DOCS_SCREENSHOTS=1`` the docs' pictures (``docs/web-real-dice-phone-*.png``,
``docs/web-sitting-*.png``) are written again; else they go to ``test-artifacts``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx

from tests.browser.support import (
    DESKTOP,
    PHONE,
    axe_path,
    axe_violations,
    join,
    open_page,
    table_id,
    text_of,
    wait_text,
    with_axe,
)
from tests.server_process import ROOT, ServerProcess

DOCS = ROOT / "docs"

# Each player's 13 turns: the dice entered and the box filled ("=N": written as N points).
ANN = [
    ("66666", "yahtzee"), ("11112", "ones"),
    ("11111", "full_house"),  # Aces filled: a Joker in Full House, and the 100 bonus
    ("22234", "twos"), ("33345", "threes"), ("44456", "fours"), ("55561", "fives"),
    ("66612", "sixes"), ("33344", "three_of_a_kind"), ("44442", "four_of_a_kind"),
    ("12346", "small_straight"), ("23456", "large_straight"), ("12356", "chance"),
]  # fmt: skip
ANN_TOTAL = 64 + 35 + (17 + 18 + 25 + 30 + 40 + 50 + 17) + 100
BOB = [
    ("11234", "ones"), ("22345", "twos"), ("33456", "threes"), ("44123", "fours"),
    ("55123", "fives"), ("66123", "sixes"), ("11123", "three_of_a_kind"),
    ("22221", "four_of_a_kind"), ("22333", "full_house"), ("12345", "small_straight"),
    ("12345", "large_straight"), ("12346", "yahtzee"), ("66554", "chance"),
]  # fmt: skip
BOB_TOTAL = 42 + (8 + 9 + 25 + 30 + 40 + 0 + 26)
CY = [
    ("ones", 3), ("twos", 6), ("threes", 9), ("fours", 12), ("fives", 15), ("sixes", 18),
    ("three_of_a_kind", 20), ("four_of_a_kind", 0), ("full_house", 25),
    ("small_straight", 30), ("large_straight", 0), ("yahtzee", 0), ("chance", 22),
]  # fmt: skip
CY_TOTAL = 63 + 35 + (20 + 0 + 25 + 30 + 0 + 0 + 22)


def shot(page: Any, name: str, artifacts: Path, **options: Any) -> None:
    folder = DOCS if os.environ.get("YAHTZEE_DOCS_SCREENSHOTS") == "1" else artifacts
    page.screenshot(path=str(folder / name), **options)


def pad_table(page: Any, names: list[str], *, real_dice: bool = True) -> str:
    """The host (the first name) makes a table with a seat for each other player, adds
    each of them on this page in the waiting room, and starts; the table's id."""
    page.fill("#host-name", names[0])
    if real_dice:
        page.check("#real-dice")
    for _ in names[1:]:
        page.click("#add-human")
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])")
    for name in names[1:]:
        page.wait_for_selector("#add-here:not([hidden])")
        page.fill("#add-here-name", name)
        page.click("#add-here-button")
        wait_text(page, "#add-here-note", f"{name} plays on this device")
    for name in names[1:]:
        wait_text(page, "#lobby-seats", name)
    if names[1:]:
        wait_text(page, "#lobby-seats", "on this device")
    page.wait_for_selector("#start:enabled")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    return table_id(page)


def turn_of(page: Any, name: str) -> None:
    """Until the pad acts for ``name``: their turn, its picker ready."""
    wait_text(page, "#whose", f"{name}'s turn")
    page.wait_for_selector("#whose.mine")
    page.wait_for_selector("#faces .face-pick:enabled")


def enter(page: Any, dice: str, roll: int | None = None) -> None:
    """Tap each die's face on the picker (and the roll, if said); the proposals follow."""
    if roll is not None:
        page.click(f"#roll-no [data-roll='{roll}']")
    for face in dice:
        page.click(f"#faces [data-face='{face}']")
    page.wait_for_selector("#scorecard .propose:not([aria-disabled='true'])")


def fill(page: Any, box: str) -> None:
    filled = page.locator("#scorecard td.filled").count()
    page.click(f"#scorecard .propose[data-box='{box}']:not([aria-disabled='true'])")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#scorecard td.filled').length > n "
        "|| !document.getElementById('over').hidden",
        arg=filled,
    )


def write(page: Any, box: str, points: int) -> None:
    if page.locator("#quick").is_hidden():
        page.click("#quick-toggle")
    page.select_option("#quick-box", box)
    page.fill("#quick-points", str(points))
    filled = page.locator("#scorecard td.filled").count()
    page.click("#quick-write")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#scorecard td.filled').length > n "
        "|| !document.getElementById('over').hidden",
        arg=filled,
    )


def standings(page: Any) -> dict[str, int]:
    page.wait_for_selector("#over:not([hidden])")
    found = {}
    for item in page.locator("#standings li").all():
        found[item.locator(".name").text_content() or ""] = int(
            item.locator(".total").text_content() or "0"
        )
    return found


def test_a_whole_game_of_real_dice_on_one_phone_passed_around(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page(browser, None, PHONE)
    with_axe(page, axe_path())
    page.goto(server.base)
    table = pad_table(page, ["Ann", "Bob", "Cy"])
    for round_ in range(13):
        turn_of(page, "Ann")
        if round_ == 2:  # the Joker: its proposal says so, and the forced box is offered
            enter(page, ANN[round_][0])
            label = page.get_attribute("#scorecard .propose[data-box='full_house']", "aria-label")
            assert label is not None and label.startswith("Score 125 in Full House (Joker)"), label
        elif round_ == 3:  # a die mistyped, taken away and corrected before placing
            page.click("#roll-no [data-roll='2']")
            for face in "2225":
                page.click(f"#faces [data-face='{face}']")
            page.click("#picked [data-slot='3']")  # the 5 was wrong
            wait_text(page, "#faces [data-face='2'] .count", "\u00d73")  # "times 3"
            enter(page, "34")
            assert page.locator("#roll-no [data-roll='2']").get_attribute("aria-pressed") == "true"
        elif round_ == 5:  # half entered: the picker, its counts, the roll said
            page.click("#roll-no [data-roll='3']")
            for face in "445":
                page.click(f"#faces [data-face='{face}']")
            wait_text(page, "#entry-count", "3 of 5 dice entered")
            page.evaluate("() => window.scrollTo(0, 0)")
            assert axe_violations(page, "the pad, a turn of real dice") == []
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                shot(page, f"web-real-dice-phone-{scheme}.png", artifacts)
            page.emulate_media(color_scheme="light")
            enter(page, "46")
        else:
            enter(page, ANN[round_][0])
        fill(page, ANN[round_][1])
        if round_ == 0:  # taken back before Bob acts, and placed again
            turn_of(page, "Bob")
            wait_text(page, "#undo-entry", "Take back Ann's last entry")
            page.click("#undo-entry")
            wait_text(page, "#whose", "Ann's turn")  # her dice show again: the box is open
            page.wait_for_selector(
                "#scorecard .propose[data-box='yahtzee']:not([aria-disabled='true'])"
            )
            assert [s.get_attribute("data-face") for s in page.locator("#picked .slot").all()] == [
                "6"
            ] * 5
            fill(page, "yahtzee")
        turn_of(page, "Bob")
        enter(page, BOB[round_][0])
        fill(page, BOB[round_][1])
        turn_of(page, "Cy")
        write(page, *CY[round_])
    assert standings(page) == {"Ann": ANN_TOTAL, "Bob": BOB_TOTAL, "Cy": CY_TOTAL}
    with httpx.Client(base_url=server.base, timeout=10) as api:
        lobby = api.get(f"/api/tables/{table}").json()
    assert lobby["dice"] == "entered" and lobby["status"] == "finished"
    assert "Traceback" not in " ".join(page.console_lines)
    assert not [line for line in page.console_lines if "pageerror" in line]


def test_quick_score_entry_refuses_an_impossible_score(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page(browser, server.base, DESKTOP)
    pad_table(page, ["Ann", "Bob"])
    turn_of(page, "Ann")
    page.click("#quick-toggle")
    page.select_option("#quick-box", "fours")
    page.fill("#quick-points", "7")
    page.click("#quick-write")
    wait_text(page, "#quick-note", "Fours holds 0, 4, 8, 12, 16 or 20 points")
    wait_text(page, "#status", "not 7")
    assert page.locator("#scorecard td.filled").count() == 0  # nothing changed
    assert "Ann's turn" in text_of(page, "#whose")
    page.fill("#quick-points", "12")
    page.click("#quick-write")
    turn_of(page, "Bob")
    assert page.locator("#scorecard td.filled").all_text_contents() == ["12"]
    assert text_of(page, "#quick-note") == ""
    # "a Yahtzee of fives" enters 55555: the card offers the Yahtzee's 50
    page.click("#quick-toggle") if page.locator("#quick").is_hidden() else None
    page.click("#yahtzee-of [data-face='5']")
    page.wait_for_selector("#scorecard .propose[data-box='yahtzee']:not([aria-disabled='true'])")
    assert text_of(page, "#scorecard .propose[data-box='yahtzee']") == "50"
    assert [s.get_attribute("data-face") for s in page.locator("#picked .slot").all()] == ["5"] * 5


def test_a_sitting_of_three_games_in_columns(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = open_page(browser, server.base, DESKTOP)
    first = pad_table(page, ["Ann", "Bob"])
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
             "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
             "chance"]  # fmt: skip

    def points(game: int, seat: int, box: str) -> int:  # each allowed, upper under 63
        return {
            "ones": 1 + game, "twos": 2 * (1 + seat), "threes": 3 * (3 - game),
            "fours": 4 * (1 + (game + seat) % 3), "fives": 5, "sixes": 6 * (2 - seat),
            "three_of_a_kind": 0 if game == 1 else 17 + seat,
            "four_of_a_kind": 0 if seat == game % 2 else 14,
            "full_house": 25 if seat or game else 0, "small_straight": 30,
            "large_straight": 40 if game != seat else 0, "yahtzee": 50 if game == 2 and seat else 0,
            "chance": 20 + game * 3 + seat,
        }[box]  # fmt: skip

    totals = []
    for game in range(3):
        for box in boxes:
            for seat, name in enumerate(["Ann", "Bob"]):
                turn_of(page, name)
                value = points(game, seat, box)
                if game == 2 and box == "fives" and seat == 0:  # during a later game
                    page.click("#columns-play")
                    page.wait_for_selector("#columns-dialog[open]")
                    wait_text(page, "#columns-table", "Game 3 (now)")
                    page.click("#columns-close")
                write(page, box, value)
        totals.append([sum(points(game, seat, box) for box in boxes) for seat in range(2)])
        assert standings(page) == {"Ann": totals[-1][0], "Bob": totals[-1][1]}
        if game < 2:
            page.click("#rematch")
            page.wait_for_selector("#lobby:not([hidden])")
            wait_text(page, "#lobby-seats", "on this device")
            page.wait_for_selector("#start:enabled")
            page.click("#start")
            page.wait_for_selector("#play:not([hidden])")
            assert page.locator("#sitting-bar").is_visible()
    with httpx.Client(base_url=server.base, timeout=10) as api:
        columns = api.get(f"/api/sittings/{first}/columns").json()
    assert [g["totals"] for g in columns["games"]] == totals
    sums = [sum(t[seat] for t in totals) for seat in range(2)]
    assert columns["running"][-1] == sums
    page.click("#columns-open")
    page.wait_for_selector("#columns-dialog[open] tr.running")
    running = [int(t) for t in page.locator("#columns-table tr.running td").all_text_contents()]
    assert running == [sum(t[seat] for t in totals[: g + 1]) for g in range(3) for seat in range(2)]
    assert running[-2:] == sums
    with_axe(page, axe_path())
    page.reload()
    page.wait_for_selector("#over:not([hidden])")
    page.click("#columns-open")
    page.wait_for_selector("#columns-dialog[open] tr.running")
    assert axe_violations(page, "the sitting's columns") == []
    shot(page, "web-sitting-desktop.png", artifacts)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.wait_for_selector("#columns-dialog[open] tr.running")
    shot(page, "web-sitting-phone.png", artifacts)


def test_the_same_table_with_a_phone_each(browser: Any, server: ServerProcess) -> None:
    """Ann on her page, Bob on his phone through the invite: each enters their own dice,
    and each sees the other's as they are entered."""
    ann = open_page(browser, server.base, DESKTOP)
    ann.fill("#host-name", "Ann")
    ann.check("#real-dice")
    assert ann.locator("#add-bot").is_disabled() and ann.locator("#timer-choice").is_disabled()
    ann.click("#add-human")
    ann.click("#create-table")
    ann.wait_for_selector("#lobby:not([hidden])")
    wait_text(ann, "#table-info", "real dice")
    bob = join(browser, ann.input_value("#invite-link"), "Bob", PHONE)
    ann.wait_for_selector("#start:enabled")
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#play:not([hidden])")
    wait_text(ann, "#turn", "your turn")
    wait_text(bob, "#whose-note", "Ann enters their dice on their own device")
    assert bob.locator("#faces .face-pick:enabled").count() == 0  # not his turn
    enter(ann, "33356")
    wait_text(bob, "#status", "Ann entered 3 3 3 5 6")
    assert [s.get_attribute("data-face") for s in bob.locator("#picked .slot").all()] == list(
        "33356"
    )
    fill(ann, "threes")
    wait_text(bob, "#turn", "your turn")
    bob.wait_for_selector("#faces .face-pick:enabled")
    enter(bob, "12345")
    fill(bob, "large_straight")
    wait_text(ann, "#turn", "your turn")
    assert ann.locator("#undo-entry").is_hidden()  # Bob's entry is his to take back
    wait_text(bob, "#undo-entry", "Take back your last entry")
