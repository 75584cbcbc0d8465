"""Every screen, at 1280x800 and 360x740, light and dark: axe-core finds no violation, and
each is photographed (``test-artifacts/web-*.png``; with ``YAHTZEE_DOCS_SCREENSHOTS=1``
the README's pictures, ``docs/web-*.png``, are written again).

The game is real: a seeded server in this process, Ann and Bob on their pages (each keeping
its most common face and scoring its best box), two bots and a spectator."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.browser.support import (
    DESKTOP,
    PHONE,
    SCHEMES,
    SIZES,
    SLOW,
    TIMEOUT,
    axe_path,
    axe_violations,
    create_table,
    faces,
    held,
    open_page,
    play_greedy_turn,
    roll,
    score_best,
    start,
    wait_text,
    with_axe,
)
from tests.live_server import running
from tests.server_process import ROOT
from tests.waiting import wait_until

DOCS = ROOT / "docs"
DOCS_SCREENS = {"waiting-room": "lobby", "turn": "turn", "game-over": "game-over"}
SEED = 11
TURN_ROUND = 7

Visit = Callable[[str, Any], None]


def current_round(page: Any) -> int:
    found = re.search(r"Round (\d+) of", page.text_content("#turn") or "")
    return int(found.group(1)) if found else 0


def play_until(pages: list[Any], done: Callable[[], bool]) -> None:
    """Whoever's turn it is plays one (bots play by themselves), until ``done()``."""
    for _ in range(60):
        if done():
            return
        try:
            actor = wait_until(
                lambda: done() or next((p for p in pages if can_start_turn(p)), None),
                timeout=SLOW / 1000,
                what="a page whose turn it is, or the end",
            )
        except AssertionError:
            for i, page in enumerate(pages):
                page.screenshot(path=str(ROOT / "test-artifacts" / f"web-stuck-{i}.png"))
            raise
        if actor is True:
            return
        play_greedy_turn(actor)
    raise AssertionError("the game did not get there")


def can_start_turn(page: Any) -> bool:
    return bool(
        page.locator("#play").is_visible()
        and "your turn" in (page.text_content("#turn") or "")
        and page.is_enabled("#roll")
        and not page.text_content("#rolls-left")
    )


def tour(browser: Any, base: str, visit: Visit, axe: Path | None) -> None:
    """Every screen in turn, handed to ``visit`` with the page showing it."""

    def page_at(url: str | None, size: tuple[int, int] = DESKTOP, **touch: Any) -> Any:
        page = open_page(browser, None, size, reduced_motion="reduce", **touch)
        if axe is not None:
            with_axe(page, axe)
        if url:
            page.goto(url)
        return page

    ann = page_at(base)
    ann.fill("#host-name", "Ann")
    visit("new-table", ann)
    invite = create_table(ann, friends=1, bots=(3, 5))
    watch = ann.input_value("#watch-link")
    bob = page_at(invite, PHONE, has_touch=True, is_mobile=True)  # a friend on a phone
    visit("join", bob)
    bob.fill("#join-name", "Bob")
    bob.click("#join-table")
    bob.wait_for_selector("#lobby:not([hidden])")
    bob.fill("#chat-text", "Good luck, everyone!")
    bob.click("#send")
    wait_text(ann, "#chat-log", "Good luck")
    ann.fill("#chat-text", "You too, Bob. The bots are tough")
    ann.click("#send")
    wait_text(ann, "#chat-log", "bots are tough")
    ann.wait_for_selector("#start:enabled")
    visit("waiting-room", ann)
    visit("waiting-room-guest", bob)
    start(ann)
    play_until([ann, bob], lambda: current_round(ann) >= TURN_ROUND and can_start_turn(ann))
    roll(ann)
    dice = faces(ann)
    common = max("123456", key=lambda f: (dice.count(f), f))
    for i, face in enumerate(dice):
        if face == common and not held(ann)[i]:
            ann.click(f"#dice .die >> nth={i}")
    ann.click("#hint")
    ann.wait_for_selector("#hint-box:not([hidden])", timeout=SLOW)
    fan = page_at(watch)
    fan.wait_for_selector("#play:not([hidden])")
    visit("turn", ann)
    visit("spectator", fan)
    score_best(ann)
    play_until([ann, bob], lambda: bool(ann.locator("#over").is_visible()))
    for page in (ann, fan):
        page.wait_for_selector("#over:not([hidden])", timeout=TIMEOUT)
        page.wait_for_selector("#review:not([hidden]) section", timeout=SLOW)
    visit("game-over", ann)
    visit("game-over-spectator", fan)
    for page in (ann, bob, fan):  # the server's Content-Security-Policy refused nothing
        refused = [line for line in page.console_lines if "Content Security Policy" in line]
        assert not refused, refused


def views(page: Any, each: Callable[[str, tuple[int, int], str], None]) -> None:
    """The page at each size in each colour scheme, scrolled to the top (then back at its
    own size)."""
    own = page.viewport_size
    page.wait_for_selector("#celebration", state="hidden", timeout=TIMEOUT)  # a bot's moment
    for size_name, size in SIZES.items():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            page.evaluate("() => window.scrollTo(0, 0)")
            page.mouse.move(0, size[1] - 1)  # no hover left from the last click
            page.wait_for_timeout(150)
            each(size_name, size, scheme)
    page.set_viewport_size(own)


def test_no_screen_has_an_axe_violation(browser: Any) -> None:
    axe = axe_path()
    found: list[str] = []

    def check(screen: str, page: Any) -> None:
        views(
            page,
            lambda size, _, scheme: found.extend(axe_violations(page, f"{screen} {size} {scheme}")),
        )

    with (
        tempfile.TemporaryDirectory() as folder,
        running(f"sqlite:///{folder}/a.db", seed=SEED) as where,
    ):
        tour(browser, f"http://{where}", check, axe)
    assert not found, "\n".join(found)


def test_screenshots_of_every_screen(browser: Any, artifacts: Path) -> None:
    docs = os.environ.get("YAHTZEE_DOCS_SCREENSHOTS") == "1"
    written: list[Path] = []

    def shoot(screen: str, page: Any) -> None:
        def one(size_name: str, size: tuple[int, int], scheme: str) -> None:
            name = f"web-{screen}-{size_name}-{scheme}.png"
            page.screenshot(path=str(artifacts / name))
            written.append(artifacts / name)
            if docs and screen in DOCS_SCREENS:
                page.screenshot(
                    path=str(DOCS / f"web-{DOCS_SCREENS[screen]}-{size_name}-{scheme}.png")
                )

        views(page, one)

    with (
        tempfile.TemporaryDirectory() as folder,
        running(f"sqlite:///{folder}/s.db", seed=SEED) as where,
    ):
        tour(browser, f"http://{where}", shoot, None)
    assert len(written) == 8 * len(SIZES) * len(SCHEMES)
    assert all(p.stat().st_size > 5000 for p in written)
