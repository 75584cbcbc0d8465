"""Draw the installable app's screens at phone size (390x844), light and dark, for
docs/guides/app.md: the home screen with the "Install app" offer (Chromium's
beforeinstallprompt, made here as the tests make it), and offline: the new-game form with
no connection ("Play on this phone"), a game against a bot mid-turn (rolled, two dice held,
the advisor's hint) and My games with this phone's games (one playing, one finished and
offered for the account).

A local server (the tests' `tests.live_server`) and Chromium; the page is visited once
online (its worker keeps the app), then the connection goes.

    python scripts/offline_screenshots.py [OUT_FOLDER]   (default: docs/)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from playwright.sync_api import sync_playwright  # noqa: E402
from tests.browser.support import OFFER_INSTALL, roll, score_best  # noqa: E402
from tests.browser_support import CHROMIUM_FLAGS, chromium  # noqa: E402
from tests.live_server import running  # noqa: E402

PHONE = {"width": 390, "height": 844}


def visited(browser: Any, site: str, scheme: str) -> Any:
    context = browser.new_context(viewport=PHONE, color_scheme=scheme, service_workers="allow")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(site)
    page.wait_for_selector("#create:not([hidden])")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page


def game_here(page: Any, names: list[str], bots: int, turns: int) -> None:
    """A game on this phone (the connection off), ``turns`` of its turns played."""
    page.goto(page.url.split("?")[0])
    page.wait_for_selector("#where-device:checked")
    page.fill("#host-name", names[0])
    for i, name in enumerate(names[1:]):
        page.click("#add-human")
        page.fill(f"#player-name-{i}", name)
    for _ in range(bots):
        page.click("#add-bot")
    page.click("#create-table")
    page.wait_for_selector("#play:not([hidden])")
    for _ in range(turns):
        page.wait_for_selector("#roll[aria-disabled='false']")
        roll(page)
        score_best(page)


def mid_turn(page: Any) -> None:
    """A game against a level-3 bot: the first roll, two dice held, the advisor's hint."""
    page.goto(page.url.split("?")[0])
    page.wait_for_selector("#where-device:checked")
    page.fill("#host-name", "Ann")
    page.click("#add-bot")
    page.click("#create-table")
    page.wait_for_selector("#roll[aria-disabled='false']")
    roll(page)
    faces = page.eval_on_selector_all("#dice .die", "(dice) => dice.map((d) => d.dataset.face)")
    twins = [i for i, face in enumerate(faces) if faces.count(face) > 1][:2] or [0, 1]
    for i in twins:
        page.click(f"#dice .die >> nth={i}")
    page.wait_for_function(
        "() => document.querySelectorAll('#dice .die[aria-pressed=true]').length === 2"
    )
    page.click("#hint")
    page.wait_for_selector("#hint-box:not([hidden]) li.best")
    page.evaluate("() => { document.activeElement.blur(); scrollTo(0, 0); }")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, running(f"sqlite:///{folder}/s.db") as address:
        site = f"http://{address}/"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS)
            try:
                for scheme in ("light", "dark"):
                    page = visited(browser, site, scheme)
                    page.evaluate(OFFER_INSTALL)  # as Chromium offers an installable app
                    page.wait_for_selector("#install-offer:not([hidden])")
                    page.screenshot(path=str(out / f"web-install-phone-{scheme}.png"))
                    page.click("#install")  # (the offer goes once used)
                    page.wait_for_selector("#install-offer", state="hidden")
                    page.context.set_offline(True)
                    page.wait_for_selector("#where-device:checked")
                    page.fill("#host-name", "Ann")
                    page.click("#add-human")
                    page.fill("#player-name-0", "Bea")
                    page.click("#add-bot")
                    page.evaluate("() => { document.activeElement.blur(); scrollTo(0, 0); }")
                    page.screenshot(path=str(out / f"web-offline-form-phone-{scheme}.png"))
                    mid_turn(page)
                    page.screenshot(path=str(out / f"web-offline-phone-{scheme}.png"))
                    game_here(page, ["Ann"], 0, 13)
                    page.wait_for_selector("#over:not([hidden])")
                    game_here(page, ["Ann", "Bea"], 1, 2)
                    page.goto(f"{site}?my")
                    page.wait_for_selector(".my-game.device")
                    page.screenshot(path=str(out / f"web-offline-my-games-phone-{scheme}.png"))
                    page.context.close()
            finally:
                browser.close()


if __name__ == "__main__":
    main()
