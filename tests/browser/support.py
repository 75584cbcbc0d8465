"""Steps the browser tests share: a page (with its console kept), a table, a turn, axe-core.

Every wait is a Playwright wait with a bound. Expressions given to the page are functions,
never strings to evaluate: the page's Content-Security-Policy forbids eval.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 20_000  # ms: every Playwright wait and action
SLOW = 90_000  # ms: the advisor and the review wait for the solver on a cold cache
DESKTOP = (1280, 800)
PHONE = (360, 740)
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCHEMES = ("light", "dark")

SERVICE_WORKERS = os.environ.get("YAHTZEE_TEST_SERVICE_WORKERS", "block")
"""Playwright's ``service_workers`` for a page that does not choose: "block" (the page then
runs as a browser without service workers does: online only), as a worker installing the
whole app in every new context costs CPU time the suite does not have; the tests of the
worker (test_pwa.py, test_push_page.py) ask for "allow". YAHTZEE_TEST_SERVICE_WORKERS=allow
runs every page test with the worker in charge."""

AXE_ENV = "YAHTZEE_AXE_JS"
AXE_DEFAULT = Path.home() / ".cache" / "yahtzee-axe" / "node_modules" / "axe-core" / "axe.min.js"


def open_page(
    browser: Any,
    url: str | None,
    size: tuple[int, int] = DESKTOP,
    scheme: str = "light",
    **options: Any,
) -> Any:
    """A page in a context of its own (its own local storage); ``page.console_lines``
    keeps everything the page wrote to the console, ``page.sockets`` every WebSocket
    it opened. Dialogs ("Score 0 in ...?") are accepted. Service workers: see
    `SERVICE_WORKERS`."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        color_scheme=scheme,
        **{"service_workers": SERVICE_WORKERS, **options},
    )
    context.set_default_timeout(TIMEOUT)
    context.set_default_navigation_timeout(TIMEOUT)
    page = context.new_page()
    page.console_lines = []
    page.sockets = []
    page.on("console", lambda message: page.console_lines.append(message.text))
    page.on("pageerror", lambda error: page.console_lines.append(f"pageerror: {error}"))
    page.on("websocket", lambda socket: page.sockets.append(socket))  # noqa: PLW0108 (a bound builtin cannot be a Playwright handler)
    page.on("dialog", lambda dialog: dialog.accept())
    if url is not None:
        page.goto(url)
    return page


PONG = json.dumps({"v": 1, "type": "pong"})


def scripted(socket: Any, then: Any = None) -> None:
    """A WebSocket a test answers instead of the server (``page.route_web_socket``):
    it answers the page's pings as the server does (else the page takes it for a dead
    connection after 4 s and connects again); the page's other messages go to ``then``."""

    def from_page(message: str | bytes) -> None:
        if json.loads(message).get("type") == "ping":
            socket.send(PONG)
        elif then is not None:
            then(message)

    socket.on_message(from_page)


def text_of(page: Any, selector: str) -> str:
    return str(page.text_content(selector) or "")


def wait_text(page: Any, selector: str, text: str, timeout: int = TIMEOUT) -> None:
    """Until the element's text contains ``text``."""
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)",
        arg=[selector, text],
        timeout=timeout,
    )


def create_table(
    page: Any,
    *,
    name: str = "Ann",
    friends: int = 0,
    bots: tuple[int | str, ...] = (),
    timer: str | None = None,
    hints: bool = True,
) -> str:
    """Fill the new-table form (friends' seats first, then these bots: a level, or a bot's
    key such as ``"winning"``) and wait for the waiting room; the invite link."""
    page.fill("#host-name", name)
    seats = page.locator("#seat-list li")

    def add(button: str) -> None:
        # each seat awaited before the next click: a click on a list still redrawing
        # can land beside the button on a loaded machine
        expected = seats.count() + 1
        page.click(button)
        page.wait_for_function(
            "n => document.querySelectorAll('#seat-list li').length === n", arg=expected
        )

    for _ in range(friends):
        add("#add-human")
    for bot in bots:
        add("#add-bot")
        page.select_option("#seat-list li:last-child select", bot_key(bot))
    if timer is not None:
        page.select_option("#timer-choice", timer)
    if not hints:
        page.uncheck("#hints")
    page.click("#create-table")
    page.wait_for_selector("#lobby:not([hidden])")
    return str(page.input_value("#invite-link"))


def bot_key(bot: int | str) -> str:
    """The key of a bot given by its level (``3``: ``level3``) or its key."""
    return f"level{bot}" if isinstance(bot, int) else bot


def join(
    browser: Any, invite: str, name: str, size: tuple[int, int] = DESKTOP, **options: Any
) -> Any:
    page = open_page(browser, invite, size, **options)
    page.fill("#join-name", name)
    page.click("#join-table")
    page.wait_for_selector("#lobby:not([hidden])")
    return page


def start(page: Any) -> None:
    page.wait_for_selector("#start:enabled")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")


def table_id(page: Any) -> str:
    found = re.search(r"[?&]table=([^&]+)", page.url)
    assert found, page.url
    return found.group(1)


def stored_token(page: Any) -> str:
    data = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('yahtzee:' + id) || 'null')", table_id(page)
    )
    return str(data["token"])


def my_turn(page: Any) -> bool:
    return "your turn" in text_of(page, "#turn")


def rolls_left(page: Any) -> str:
    return text_of(page, "#rolls-left")


def roll(page: Any) -> None:
    """Press Roll and wait for the roll to come back."""
    before = rolls_left(page)
    page.click("#roll")
    page.wait_for_function(
        "(b) => document.getElementById('rolls-left').textContent !== b", arg=before
    )


def held(page: Any) -> list[bool]:
    return [b.get_attribute("aria-pressed") == "true" for b in page.locator("#dice .die").all()]


def faces(page: Any) -> str:
    return "".join(b.get_attribute("data-face") or "" for b in page.locator("#dice .die").all())


def score_best(page: Any) -> None:
    """Score the proposal with the most points (the last such box), and wait for it."""
    buttons = page.locator("#scorecard .propose:enabled")
    buttons.first.wait_for()
    points = [int(b.get_attribute("aria-label").split()[1]) for b in buttons.all()]
    best = max(range(len(points)), key=lambda i: (points[i], i))
    filled = page.locator("#scorecard td.filled").count()
    buttons.nth(best).click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#scorecard td.filled').length > n "
        "|| !document.getElementById('over').hidden",
        arg=filled,
    )


def play_greedy_turn(page: Any) -> None:
    """Roll, hold the most common face, roll twice more (if useful), score the best box."""
    page.wait_for_selector("#roll[aria-disabled='false']")
    roll(page)
    for _ in range(2):
        dice = faces(page)
        common = max("123456", key=lambda f: (dice.count(f), f))
        if dice.count(common) == 5 or "".join(sorted(set(dice))) in ("12345", "23456"):
            break  # a Yahtzee or a large straight: keep it
        for i, face in enumerate(dice):
            if held(page)[i] != (face == common):
                page.click(f"#dice .die >> nth={i}")
        roll(page)
    score_best(page)


def game_over(page: Any) -> bool:
    return bool(page.locator("#over").is_visible())


# --- axe-core ------------------------------------------------------------------------------


def axe_path() -> Path:
    """axe-core's script (``.ci/run`` installs it from npm and exports its path); missing:
    the test is skipped with the reason, or fails in CI."""
    path = Path(os.environ.get(AXE_ENV) or AXE_DEFAULT)
    if not path.is_file():
        reason = (
            f"axe-core is not installed ({path} missing): "
            f"npm install --prefix {AXE_DEFAULT.parents[2]} axe-core, or set {AXE_ENV}."
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI must have axe-core: .ci/run installs it. {reason}")
        pytest.skip(reason)
    return path


def with_axe(page: Any, path: Path) -> None:
    """axe-core in every document of this page's context (an init script: the page's CSP,
    which forbids inline scripts, does not apply to it)."""
    page.context.add_init_script(path=str(path))


def axe_violations(page: Any, where: str) -> list[str]:
    """axe-core's violations on the page as it is now, one line each, and every text whose
    contrast it could not decide."""
    page.wait_for_function("() => typeof axe !== 'undefined'")
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document);
            // A contrast axe could not decide (text over an image, say) counts as a failure.
            const undecided = result.incomplete.filter((v) => v.id === 'color-contrast');
            return result.violations.concat(undecided).map((v) => ({ id: v.id, help: v.help,
                nodes: v.nodes.slice(0, 5).map((n) =>
                    n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')) }));
        }"""
    )
    return [f"{where}: {v['id']} ({v['help']}): {json.dumps(v['nodes'])}" for v in found]


# Chromium's install offer, as a synthetic event: its prompt() noted, the choice accepted.
OFFER_INSTALL = """() => {
  const event = new Event("beforeinstallprompt", { cancelable: true });
  window.prompted = 0;
  event.prompt = () => { window.prompted += 1; return Promise.resolve(); };
  event.userChoice = Promise.resolve({ outcome: "accepted", platform: "web" });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""
