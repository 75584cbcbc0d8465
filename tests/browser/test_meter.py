"""The win-chance meter on the page: a percentage and a thin bar per player at the top of
the card, the progress while its table is prepared, nothing without one; the bonus
threshold the server sends; the review's swing in the chance to win.

The page talks to a scripted WebSocket (the server's own messages, built from a real game
by the server's models), so the meter shows without its table; the screens are
photographed (``test-artifacts/web-meter-*.png``)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from tests.browser.support import (
    AXE_DEFAULT,
    AXE_ENV,
    DESKTOP,
    PHONE,
    SCHEMES,
    SIZES,
    axe_violations,
    open_page,
    scripted,
    text_of,
    with_axe,
)
from tests.browser.test_look import CONTRAST
from tests.server_process import ServerProcess
from yahtzee.core import Game, RandomDice, RuleSet
from yahtzee.web.messages import MeterMessage
from yahtzee.web.models import GameView

NAMES = ["Ann", "Bob", "Bot 3 (level 3)", "Bot 4 (level 5)"]
CHANCES = [0.4137, 0.2712, 0.1893, 0.1258]


def played(rounds: int, players: list[str] = NAMES) -> Game:
    """A seeded game: each player scores its best box for ``rounds`` rounds (13: the end);
    then, mid-game, Ann rolls."""
    game = Game(players, RuleSet.official(), RandomDice(7))
    while not game.is_over and (game.turn is None or game.turn.round <= rounds):
        game.roll()
        best = max(game.placements(), key=lambda p: p.points + p.yahtzee_bonus)
        game.score(best.category)
    if not game.is_over:
        game.roll()
    return game


def state(game: Game, **fields: Any) -> dict[str, Any]:
    bots = {2: "level3", 3: "level5"}
    seats = [
        {"seat": i, "name": name, "bot": bots.get(i), "open": False, "connected": True}
        for i, name in enumerate(game.players)
    ]
    status = "finished" if game.is_over else "playing"
    return {
        "v": 1, "type": "state", "seq": len(game.event_log), "chat": [], "turn_deadline": None,
        "spectators": 0, "win_chances": None, "meter_progress": None,
        "upper_bonus_threshold": 63,
        "table": {"id": "t1", "rules": "official", "hints_allowed": True, "turn_timer": None,
                  "status": status, "seats": seats},
        "you": {"seat": 0, "role": "player"},
        "game": GameView.of(game).model_dump(mode="json"),
        **fields,
    }  # fmt: skip


def meter(seq: int, chances: list[float] | None, progress: tuple[int, int] | None) -> str:
    return MeterMessage(seq=seq, win_chances=chances, meter_progress=progress).model_dump_json()


class Scripted:
    """The page's WebSocket, answered by the test: ``send`` a server message to it."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[Any] = []
        page.route_web_socket(re.compile(r".*/ws/.*"), self._opened)

    def _opened(self, socket: Any) -> None:  # a bound builtin cannot be a Playwright handler
        scripted(socket)
        self.sockets.append(socket)

    def connected(self, page: Any) -> None:
        for _ in range(200):
            if self.sockets:
                return
            page.wait_for_timeout(50)
        raise AssertionError("the page did not connect")

    def send(self, message: dict[str, Any] | str) -> None:
        assert self.sockets, "the page did not connect"
        self.sockets[-1].send(message if isinstance(message, str) else json.dumps(message))


def seated_page(browser: Any, base: str, size: tuple[int, int] = DESKTOP, **options: Any) -> Any:
    page = open_page(browser, base, size, reduced_motion="reduce", **options)
    page.evaluate("() => localStorage.setItem('yahtzee:t1', JSON.stringify({seat: 0, token: 'k'}))")
    return page


def test_the_meter_shows_each_chance_the_progress_and_then_nothing(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    axe = Path(os.environ.get(AXE_ENV) or AXE_DEFAULT)  # axe-core where installed
    page = seated_page(browser, server.base)
    if axe.is_file():
        with_axe(page, axe)
    socket = Scripted(page)
    page.goto(f"{server.base}/?table=t1")
    socket.connected(page)
    game = played(6)
    socket.send(state(game, win_chances=CHANCES))
    page.wait_for_selector("#scorecard tr.meter")
    assert page.locator("#scorecard tbody tr").first.get_attribute("class") == "meter"
    assert page.locator("#scorecard tr.meter .pct").all_text_contents() == [
        "41%", "27%", "19%", "13%",
    ]  # fmt: skip
    labels = page.locator("#scorecard tr.meter progress").evaluate_all(
        "(bars) => bars.map((b) => [b.getAttribute('aria-label'), b.value, b.max])"
    )
    assert labels[0] == ["Ann: 41% chance to win", 41, 100]
    assert labels[2][0] == "Bot 3: 19% chance to win"
    assert "Chance to win" in text_of(page, "#scorecard tr.meter th")
    card = page.locator("#scorecard").bounding_box()
    assert card is not None and card["y"] + card["height"] <= DESKTOP[1]  # still above the fold
    # the upper section's threshold is the server's
    assert all(t.endswith("/63") for t in page.locator("#scorecard .sub").all_text_contents())

    found: list[str] = []
    for size_name, size in SIZES.items():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            page.evaluate("() => window.scrollTo(0, 0)")
            page.wait_for_timeout(150)
            page.screenshot(path=str(artifacts / f"web-meter-{size_name}-{scheme}.png"))
            assert page.locator("#scorecard tr.meter").is_visible()
            for ratio in page.locator("#scorecard tr.meter .pct").evaluate_all(
                f"(all) => all.map({CONTRAST})"
            ):
                assert ratio >= 4.5, (size_name, scheme, ratio)
            if axe.is_file():
                found.extend(axe_violations(page, f"meter {size_name} {scheme}"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.emulate_media(color_scheme="light")

    socket.send(meter(len(game.event_log), None, (5, 14)))
    page.wait_for_selector("#scorecard tr.meter.preparing")
    assert text_of(page, "#scorecard tr.meter td") == "Preparing win chances 5/14"
    page.screenshot(path=str(artifacts / "web-meter-preparing-desktop-light.png"))
    if axe.is_file():
        found.extend(axe_violations(page, "meter preparing"))
    socket.send(meter(len(game.event_log), None, None))  # nothing to show: no row
    page.wait_for_selector("#scorecard tr.meter", state="detached")
    socket.send(state(game, upper_bonus_threshold=50))
    page.wait_for_function(
        "() => [...document.querySelectorAll('#scorecard .sub')].every("
        "(s) => s.textContent.endsWith('/50'))"
    )
    assert page.locator("#scorecard tr.meter").count() == 0
    assert not found, "\n".join(found)
    refused = [line for line in page.console_lines if "Content Security Policy" in line]
    assert not refused, refused


def test_an_estimate_is_shown_as_one_and_an_older_message_as_it_is(
    browser: Any, server: ServerProcess
) -> None:
    page = seated_page(browser, server.base)
    socket = Scripted(page)
    page.goto(f"{server.base}/?table=t1")
    socket.connected(page)
    game = played(6)
    seq = len(game.event_log)
    estimate = MeterMessage(seq=seq, win_chances=CHANCES, meter_progress=(3, 14),
                            estimate=True, margin=0.45)  # fmt: skip
    socket.send(state(game))
    socket.send(estimate.model_dump_json())
    page.wait_for_selector("#scorecard tr.meter .pct")
    assert page.locator("#scorecard tr.meter .pct").all_text_contents() == [
        "≈41%", "≈27%", "≈19%", "≈13%",
    ]  # fmt: skip
    label = page.locator("#scorecard tr.meter progress").first.get_attribute("aria-label")
    assert label == (
        "Ann: ≈41% chance to win (an estimate, within 45 points while the exact chances "
        "are prepared)"
    )
    old = {"v": 1, "type": "meter", "seq": seq, "win_chances": CHANCES, "meter_progress": None}
    socket.send(old)  # a server without the estimate fields: exact chances
    page.wait_for_function(
        "() => document.querySelector('#scorecard tr.meter .pct').textContent === '41%'"
    )


def test_alone_the_meter_is_the_chance_to_beat_your_best(
    browser: Any, server: ServerProcess
) -> None:
    page = seated_page(browser, server.base, PHONE)
    socket = Scripted(page)
    page.goto(f"{server.base}/?table=t1")
    socket.connected(page)
    socket.send(state(played(2, ["Ann"]), win_chances=[0.004]))
    page.wait_for_selector("#scorecard tr.meter")
    assert text_of(page, "#scorecard tr.meter td") == "<1%"
    label = page.locator("#scorecard tr.meter progress").get_attribute("aria-label")
    assert label == "Ann: <1% chance to beat your best score"
    assert "Beat best" in text_of(page, "#scorecard tr.meter th")


def test_the_review_tells_the_swing_in_the_chance_to_win(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    page = seated_page(browser, server.base)
    socket = Scripted(page)
    page.goto(f"{server.base}/?table=t1")
    socket.connected(page)
    final = played(13)
    assert final.is_over
    socket.send(state(final, win_chances=None))
    page.wait_for_selector("#over:not([hidden])")
    assert page.locator("tr.meter").count() == 0  # the standings tell now
    costliest = [
        {"round": 4, "dice": "2 2 3 5 6", "chosen": "keep 22", "best": "keep 2356",
         "loss": 2.5, "win_swing": 0.031},
        {"round": 9, "dice": "1 1 4 4 6", "chosen": "score Chance", "best": "keep 44",
         "loss": 1.25, "win_swing": 0.0},
        {"round": 11, "dice": "3 3 3 5 6", "chosen": "keep 333", "best": "keep 3335",
         "loss": 0.5, "win_swing": None},
    ]  # fmt: skip
    review = {"v": 1, "type": "review", "players": [
        {"seat": 0, "name": "Ann", "total_loss": 4.25, "decisions": 39, "costliest": costliest},
    ]}  # fmt: skip
    socket.send(review)
    page.wait_for_selector("#review:not([hidden]) li")
    lines = page.locator("#review li").all_text_contents()
    assert lines[0].endswith("best was keep 2356 (2.50 points lost, 3.1% less chance to win)")
    assert lines[1].endswith("(1.25 points lost, same chance to win)")
    assert lines[2].endswith("(0.50 points lost)")
    page.locator("#review").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "web-meter-review-desktop-light.png"))
