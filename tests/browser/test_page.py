"""The page in a real browser (Playwright driving Debian's Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server_process import ServerProcess
from tests.waiting import wait_until
from yahtzee.store import Store, history

TIMEOUT = 20_000  # ms: every Playwright wait and action, set on each context and passed to waits
# Functions, not expressions: the page's Content-Security-Policy forbids eval.
ONE_ROLL_LEFT = "() => document.getElementById('rolls-left').textContent.endsWith('1')"


def open_page(browser: Any, url: str, size: tuple[int, int] = (1280, 800)) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(TIMEOUT)
    context.set_default_navigation_timeout(TIMEOUT)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.set_default_navigation_timeout(TIMEOUT)
    page.on("dialog", lambda dialog: dialog.accept())  # "Score 0 in ...?" yes
    page.goto(url)
    return page


def create_table(page: Any, friends: int = 1) -> str:
    page.fill("#host-name", "Ann")
    for _ in range(friends):
        page.click("#add-human")
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])", timeout=TIMEOUT)
    return str(page.input_value("#invite-link"))


def my_turn(page: Any) -> bool:
    return "your turn" in (page.text_content("#turn") or "")


def can_act(page: Any) -> bool:
    return bool(page.locator("#play").is_visible() and my_turn(page) and page.is_enabled("#roll"))


def all_over(pages: list[Any]) -> bool:
    return all(p.locator("#over").is_visible() for p in pages)


def take_turn(page: Any) -> None:
    """Roll (unless rolled already), keep the first die and roll again (with two rolls
    left), then score the first box offered."""
    page.wait_for_selector("#roll[aria-disabled='false']", timeout=TIMEOUT)
    if not page.text_content("#rolls-left"):
        page.click("#roll")
        page.wait_for_selector("#scorecard td button:enabled", timeout=TIMEOUT)
    if (page.text_content("#rolls-left") or "").endswith("2"):
        page.click("#dice button >> nth=0")
        page.click("#roll")
        page.wait_for_function(ONE_ROLL_LEFT, timeout=TIMEOUT)
    page.locator("#scorecard td button:enabled").first.click()
    page.wait_for_function(
        "() => !document.getElementById('turn').textContent.includes('your turn') "
        "|| document.getElementById('rolls-left').textContent === ''",
        timeout=TIMEOUT,
    )


def play_to_the_end(pages: list[Any]) -> None:
    """Whoever can act takes a turn, until every page shows the end of the game. The next
    actor may be on any page, so this waits (bounded) for one of them to be able to act."""
    for _ in range(200):
        if all_over(pages):
            return
        actor = wait_until(
            lambda: next((p for p in pages if can_act(p)), None) or all_over(pages),
            timeout=TIMEOUT / 1000,
            what="a page that can act, or the end of the game",
        )
        if actor is not True:
            take_turn(actor)
    raise AssertionError("the game did not end")


def test_two_players_and_a_spectator(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann)
    watch = ann.input_value("#watch-link")
    bob = open_page(browser, invite)
    bob.fill("#join-name", "Bob")
    bob.click("#join-table")
    bob.wait_for_selector("#lobby:not([hidden])", timeout=TIMEOUT)
    fan = open_page(browser, watch)
    fan.wait_for_selector("#lobby:not([hidden])", timeout=TIMEOUT)
    ann.wait_for_selector("#start:enabled", timeout=TIMEOUT)
    ann.click("#start")
    ann.wait_for_selector("#play:not([hidden])", timeout=TIMEOUT)
    play_to_the_end([ann, bob])
    fan.wait_for_selector("#over:not([hidden])", timeout=TIMEOUT)
    standings = fan.locator("#standings li").all_text_contents()
    assert len(standings) == 2 and any("winner" in s for s in standings)
    assert fan.locator("#roll").is_hidden()
    ann.wait_for_selector("#review section", timeout=TIMEOUT)
    with Store(server.url) as store:
        (game,) = history(store)
        assert game.status == "finished" and game.players == ("Ann", "Bob")


def test_a_reload_mid_turn_shows_the_same_dice(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    create_table(ann, friends=0)
    ann.click("#start")
    ann.wait_for_selector("#play:not([hidden])", timeout=TIMEOUT)
    ann.click("#roll")
    ann.wait_for_selector("#scorecard td button:enabled", timeout=TIMEOUT)
    ann.click("#dice button >> nth=1")
    ann.click("#roll")
    ann.wait_for_function(ONE_ROLL_LEFT, timeout=TIMEOUT)
    dice = [b.get_attribute("data-face") for b in ann.locator("#dice button").all()]
    kept = [b.get_attribute("aria-pressed") for b in ann.locator("#dice button").all()]
    ann.reload()
    ann.wait_for_function(ONE_ROLL_LEFT, timeout=TIMEOUT)
    assert [b.get_attribute("data-face") for b in ann.locator("#dice button").all()] == dice
    assert [b.get_attribute("aria-pressed") for b in ann.locator("#dice button").all()] == kept


def test_phone_and_desktop_each_play_a_turn(
    browser: Any, server: ServerProcess, artifacts: Path
) -> None:
    for size in ((360, 740), (1280, 800)):
        page = open_page(browser, server.base, size)
        create_table(page, friends=0)
        page.click("#start")
        page.wait_for_selector("#play:not([hidden])", timeout=TIMEOUT)
        take_turn(page)
        assert "Round 2" in (page.text_content("#turn") or "")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size[0] + 1  # nothing wider than the screen
        page.screenshot(path=str(artifacts / f"play-{size[0]}x{size[1]}.png"), full_page=True)
        page.context.close()
    assert (artifacts / "play-360x740.png").stat().st_size > 1000


def test_the_server_is_killed_and_the_game_goes_on(browser: Any, server: ServerProcess) -> None:
    ann = open_page(browser, server.base)
    invite = create_table(ann)
    bob = open_page(browser, invite)
    bob.fill("#join-name", "Bob")
    bob.click("#join-table")
    ann.wait_for_selector("#start:enabled", timeout=TIMEOUT)
    ann.click("#start")
    ann.wait_for_selector("#play:not([hidden])", timeout=TIMEOUT)
    for _ in range(3):  # a few turns, then the server dies mid-game
        for page in (ann, bob):
            page.wait_for_function(
                "() => document.getElementById('turn').textContent.includes('your turn')",
                timeout=TIMEOUT,
            )
            take_turn(page)
    ann.click("#roll")
    ann.wait_for_selector("#scorecard td button:enabled", timeout=TIMEOUT)
    server.kill()
    server.start()
    play_to_the_end([ann, bob])
    with Store(server.url) as store:
        (game,) = history(store)
        log = store.event_log(game.id)
        assert game.status == "finished" and len(log) == game.event_count
        assert sum(1 for e in log if e["type"] == "score") == 26
