"""The daily game on the page, in Chromium: the home page's entry (today's date and
commitment, tomorrow's, yesterday's seed), a whole game played through, the result, the
leaderboard, the share line, a second attempt refused; and the "verify the dice" panel of
a finished table game. With ``YAHTZEE_DOCS_SCREENSHOTS=1`` the docs' pictures
(``docs/web-daily-{desktop,phone}.png``) are written again; else they go to
``test-artifacts``."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import httpx

from tests.browser.support import (
    PHONE,
    SLOW,
    create_table,
    game_over,
    open_page,
    roll,
    score_best,
    start,
    text_of,
    wait_text,
)
from tests.live_server import running
from tests.server_process import ROOT, ServerProcess
from tests.web.helpers import answer, next_of, seated
from yahtzee.service import daily

DOCS = ROOT / "docs"


def play_through(page: Any) -> None:
    """Roll once, then score the best box, every turn until the game is over."""
    for _ in range(13):
        page.wait_for_selector("#roll[aria-disabled='false']")
        roll(page)
        score_best(page)
    page.wait_for_selector("#over:not([hidden])")
    assert game_over(page)


def play_by_socket(base: str, name: str, *, greedy: bool) -> tuple[str, str]:
    """Another player's daily game through the REST calls and a real WebSocket: roll
    once, then the box of the most points (``greedy``) or the first legal one; the
    game's table and the player's token."""
    started = httpx.post(f"http://{base}/api/daily", json={"name": name}).json()
    with seated(base, started["table"]["id"], token=started["token"]) as ws:
        game = next_of(ws, "state")["game"]
        for n in range(100):
            intent: dict[str, Any] = {"v": 1, "type": "roll", "id": f"m{n}"}
            if game["dice"] is not None:
                options = game["placements"]
                best = max(options, key=lambda p: p["points"]) if greedy else options[0]
                box = best["box"]
                intent = {"v": 1, "type": "score", "box": box, "id": f"m{n}"}
            ws.send_json(intent)
            game = next_of(ws, "event")["game"]
            if game["phase"] == "over":
                assert answer(ws, f"m{n}")["type"] == "ack"
                return started["table"]["id"], started["token"]
    raise AssertionError("the game did not end")


def test_the_daily_game_on_the_page(browser: Any, artifacts: Path) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        running(f"sqlite:///{folder}/daily.db") as base,
    ):
        play_by_socket(base, "Bob", greedy=True)
        play_by_socket(base, "Cy", greedy=False)
        page = open_page(browser, f"http://{base}/")
        page.wait_for_selector("#daily:not([hidden])")
        today = daily.today().isoformat()
        wait_text(page, "#daily-day", today)
        day = httpx.get(f"http://{base}/api/daily").json()
        assert text_of(page, "#daily-commitment") == day["commitment"]
        assert text_of(page, "#daily-tomorrow") == day["tomorrow"]
        page.screenshot(path=str(artifacts / "web-daily-home.png"))
        page.fill("#daily-name", "Ann")
        page.click("#daily-play")
        page.wait_for_selector("#play:not([hidden])")
        assert page.locator("#hint").is_hidden() and page.locator("#chat").is_hidden()
        wait_text(page, "#committed", day["commitment"])
        play_through(page)
        page.wait_for_selector("#daily-result:not([hidden])", timeout=SLOW)
        board = httpx.get(f"http://{base}/api/daily/{today}/leaderboard").json()
        (ann,) = [e for e in board["by_score"] if e["name"] == "Ann"]
        assert text_of(page, "#daily-score") == f"{ann['score']} points"
        wait_text(page, "#turn", f"Daily game: {ann['score']} points")
        assert text_of(page, "#daily-result-title") == f"Your daily game {today}"
        assert "points lost to the best choices" in text_of(page, "#daily-skill")
        names = page.locator("#board-score li .name").all_text_contents()
        assert sorted(names) == ["Ann", "Bob", "Cy"]
        scores = [int(t) for t in page.locator("#board-score li .total").all_text_contents()]
        assert scores == sorted(scores, reverse=True)
        assert page.locator("#board-score li.me .name").text_content() == "Ann"
        share = page.input_value("#daily-share")
        assert share.startswith(f"Yahtzee daily {today}: ") and "points" in share
        page.click("#copy-share")
        wait_text(page, "#copy-share", "Copied")
        assert page.locator("#rematch").is_hidden()
        # the dice of the day stay secret until the day is over
        page.wait_for_selector("#verify:not([hidden])")
        assert text_of(page, "#verify-commitment") == day["commitment"]
        assert "not revealed yet" in text_of(page, "#verify-seed")
        folder_out = DOCS if os.environ.get("YAHTZEE_DOCS_SCREENSHOTS") == "1" else artifacts
        page.locator("#daily-result").scroll_into_view_if_needed()
        page.screenshot(path=str(folder_out / "web-daily-desktop.png"))
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        page.locator("#daily-result").evaluate("(n) => { n.scrollIntoView(); scrollBy(0, -60); }")
        page.screenshot(path=str(folder_out / "web-daily-phone.png"))
        # back home: the day is played; another browser with the same name is refused
        page.goto(f"http://{base}/")
        wait_text(page, "#daily-play", "See your result")
        other = open_page(browser, f"http://{base}/")
        other.wait_for_selector("#daily:not([hidden])")
        other.fill("#daily-name", "Ann")
        other.click("#daily-play")
        wait_text(other, "#daily-note", "one attempt a day")
        assert other.locator("#create").is_visible()
        errors = [line for line in page.console_lines + other.console_lines if "pageerror" in line]
        assert errors == []


def test_verify_the_dice_of_a_finished_table(browser: Any, server: ServerProcess) -> None:
    page = open_page(browser, server.base)
    create_table(page)
    start(page)
    commitment = text_of(page, "#committed")
    assert len(commitment) == 64
    page.screenshot(path=str(ROOT / "test-artifacts" / "web-committed.png"))
    play_through(page)
    page.wait_for_selector("#verify:not([hidden])")
    seed = text_of(page, "#verify-seed")
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    assert text_of(page, "#verify-commitment") == commitment
    assert page.locator("#verify-steps li").count() >= 3
    assert "|seat|s|r|n|i" in text_of(page, "#verify-steps")  # a table's seats: each its own
    assert "Each seat drew its own dice" in text_of(page, "#verify-note")
    assert text_of(page, "#verify-command").startswith("yahtzee verify ")
    assert page.locator("#daily-result").is_hidden()
    page.locator("#verify").screenshot(path=str(ROOT / "test-artifacts" / "web-verify.png"))
