"""The table's big moments (issue 26, item 1): a Yahtzee, a Yahtzee bonus and the upper
bonus are celebrated (still, with reduced motion), and a placed score lights up; sounds stay
off until the player turns them on. The page is given a game by a stand-in server (a routed
WebSocket), so the dice are known; photographed for the docs with the eight-seat phone."""

from __future__ import annotations

import json
import os
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SCHEMES,
    open_page,
    roll,
    scripted,
    wait_text,
)
from tests.browser.test_look import BOX_KEYS, scorecard
from tests.browser.test_phone import host_page, seated_table
from tests.server_process import ROOT, ServerProcess
from tests.web.helpers import seated

DOCS = ROOT / "docs"


def card(**boxes: int) -> dict[str, Any]:
    filled: dict[str, int | None] = dict.fromkeys(BOX_KEYS)
    filled.update(boxes)
    upper = sum(v for k, v in boxes.items() if k in BOX_KEYS[:6])
    made = scorecard(filled, upper)
    made["total"] = sum(boxes.values())
    return made


def staged(dice: str, ann: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    seats = [
        {"seat": 0, "name": "Ann", "bot": None, "open": False, "connected": True},
        {"seat": 1, "name": "Bot 2 (level 5)", "bot": "level5", "open": False, "connected": False},
    ]
    return {
        "v": 1, "type": "state", "seq": 20, "chat": [], "turn_deadline": None, "spectators": 0,
        "win_chances": [0.61, 0.39], "meter_progress": None, "upper_bonus_threshold": 63,
        "table": {"id": "t1", "rules": "official", "hints_allowed": True, "turn_timer": None,
                  "status": "playing", "seats": seats},
        "you": {"seat": 0, "role": "player"},
        "game": {"phase": "turn", "players": ["Ann", "Bot 2 (level 5)"], "current": 0,
                 "round": 9, "dice": dice, "slots": dice, "held": [], "rolls_left": 1,
                 "kept": "-", "cards": [ann, card(sixes=24, full_house=25, chance=22)],
                 "placements": options, "winners": [], "standings": None},
    }  # fmt: skip


def option(box: str, points: int, bonus: int = 0) -> dict[str, Any]:
    return {"box": box, "name": box, "points": points, "yahtzee_bonus": bonus, "joker": False}


MOMENTS = {
    # Ann throws five sixes with her Yahtzee box open
    "yahtzee": (
        "66666",
        card(ones=3, twos=6, threes=9, fours=12, chance=21),
        [option("yahtzee", 50), option("sixes", 30), option("three_of_a_kind", 30)],
        "Yahtzee!",
    ),
    # again, with 50 in it: the bonus
    "yahtzee-bonus": (
        "55555",
        card(ones=3, twos=6, threes=9, fours=12, yahtzee=50),
        [option("fives", 25, 100), option("chance", 25, 100)],
        "Yahtzee bonus! +100",
    ),
    # sixes take the upper section to 63
    "upper-bonus": (
        "66662",
        card(ones=3, twos=6, threes=9, fours=12, fives=15),
        [option("sixes", 24), option("chance", 26)],
        "Upper bonus! +35",
    ),
}


def stage(page: Any, moment: str | tuple[str, dict[str, Any], list[dict[str, Any]], str]) -> None:
    """The stand-in server: the state, then the event that the page's score intent makes."""
    dice, ann, options, _ = MOMENTS[moment] if isinstance(moment, str) else moment
    state = staged(dice, ann, options)

    def route(socket: Any) -> None:
        def reply(message: Any) -> None:
            sent = json.loads(str(message))
            if sent.get("type") != "score":
                return
            box = sent["box"]
            chosen = next(o for o in options if o["box"] == box)
            after = json.loads(json.dumps(state["game"]))
            cards = after["cards"]
            cards[0]["boxes"][box] = chosen["points"]
            cards[0]["yahtzee_bonus"] += chosen["yahtzee_bonus"]
            upper = sum(cards[0]["boxes"][k] or 0 for k in BOX_KEYS[:6])
            cards[0]["upper_subtotal"] = upper
            cards[0]["upper_bonus"] = 35 if upper >= 63 else 0
            cards[0]["total"] += (
                chosen["points"] + chosen["yahtzee_bonus"] + cards[0]["upper_bonus"]
            )
            after.update(current=1, dice=None, slots=None, held=[], rolls_left=3, placements=[])
            points, bonus = chosen["points"], chosen["yahtzee_bonus"]
            event = {"type": "score", "player": 0, "category": box,
                     "points": points, "yahtzee_bonus": bonus}  # fmt: skip
            socket.send(json.dumps({"v": 1, "type": "event", "seq": 21, "event": event,
                                    "game": after, "turn_deadline": None}))  # fmt: skip
            socket.send(json.dumps({"v": 1, "type": "ack", "id": sent.get("id"), "seq": 21}))

        scripted(socket, reply)
        socket.send(json.dumps(state))

    page.route_web_socket(re.compile(r".*/ws/.*"), route)
    page.evaluate("() => localStorage.setItem('yahtzee:t1', JSON.stringify({seat: 0, token: 'k'}))")
    page.goto(page.url.split("?")[0] + "?table=t1")
    page.wait_for_selector("#scorecard .propose")


@pytest.mark.parametrize(
    ("moment", "motion"), [*((m, "no-preference") for m in MOMENTS), ("yahtzee", "reduce")]
)
def test_big_moments_are_celebrated(
    browser: Any, server: ServerProcess, moment: str, motion: str
) -> None:
    page = open_page(browser, server.base, reduced_motion=motion)
    stage(page, moment)
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"  # off by default
    first = MOMENTS[moment][2][0]["box"]
    page.click(f"#scorecard .propose[data-box='{first}']")
    page.wait_for_selector("#celebration:not([hidden])")
    wait_text(page, "#celebration", MOMENTS[moment][3])
    still = "still" in (page.get_attribute("#celebration", "class") or "")
    assert still == (motion == "reduce")
    animations = page.evaluate("() => document.getAnimations().length")
    assert (animations > 0) == (motion == "no-preference")
    page.wait_for_selector("#celebration", state="hidden", timeout=5000)  # then out of the way


def test_strong_choices_stand_out_and_zeros_are_quiet(browser: Any, server: ServerProcess) -> None:
    page = open_page(browser, server.base)
    choices = (
        "66662",
        card(ones=3, twos=6),
        [option("sixes", 24), option("four_of_a_kind", 26), option("chance", 26),
         option("threes", 0), option("fives", 0), option("full_house", 0)],
        "",
    )  # fmt: skip
    stage(page, choices)
    kinds = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#scorecard .propose')]"
        ".map((b) => [b.dataset.box, b.className]))"
    )
    assert "best" in kinds["sixes"] and "best" in kinds["four_of_a_kind"]  # par and more
    assert "best" not in kinds["chance"] and "zero" not in kinds["chance"]  # a plain choice
    assert all("zero" in kinds[box] for box in ("threes", "fives", "full_house"))
    styles = page.evaluate(
        "() => ['sixes', 'chance', 'threes'].map((b) => { const c = getComputedStyle("
        "document.querySelector(`#scorecard .propose[data-box='${b}']`));"
        " return [c.backgroundColor, c.borderTopStyle, Number(c.fontWeight)]; })"
    )
    strong, plain, zero = styles
    assert strong[0] != plain[0]  # gold against the card
    assert zero[1] == "dotted" and zero[2] < plain[2]  # quiet


def test_a_placed_score_lights_up_and_sound_is_a_toggle(
    browser: Any, server: ServerProcess
) -> None:
    page = open_page(browser, server.base)
    stage(page, "upper-bonus")
    page.click("#sound")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#scorecard .propose")
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"  # remembered
    page.click("#scorecard .propose[data-box='chance']")
    page.wait_for_selector("#scorecard td.just-filled")
    assert page.locator("#celebration").is_hidden()  # a plain score: no banner


def test_screenshots_of_the_big_moments_and_eight_seats_on_a_phone(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    docs = os.environ.get("YAHTZEE_DOCS_SCREENSHOTS") == "1"
    shots: list[Path] = []
    for scheme in SCHEMES:
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(browser, server.base, size, scheme, reduced_motion="reduce")
            stage(page, "yahtzee")
            page.click("#scorecard .propose[data-box='yahtzee']")
            page.wait_for_selector("#celebration:not([hidden])")
            page.evaluate("() => window.scrollTo(0, 0)")
            shots.append(artifacts / f"web-yahtzee-{size_name}-{scheme}.png")
            page.screenshot(path=str(shots[-1]))
            page.context.close()
        tokens: list[str] = []
        table_id, token = seated_table(server.base, tokens)
        with ExitStack() as friends:  # everyone at the table is here
            for friend in tokens:
                friends.enter_context(seated(server.base.split("//")[1], table_id, token=friend))
            page = host_page(browser, server.base, table_id, token, (360, 740))
            page.emulate_media(color_scheme=scheme)
            wait_text(page, "#turn", "your turn")
            roll(page)
            page.wait_for_function("() => document.getElementById('host-tools').hidden")
            page.wait_for_timeout(600)
            shots.append(artifacts / f"web-eight-seats-phone-{scheme}.png")
            page.screenshot(path=str(shots[-1]))
            page.context.close()
    assert all(p.stat().st_size > 5000 for p in shots)
    if docs:
        for shot in shots:
            (DOCS / shot.name).write_bytes(shot.read_bytes())
