"""Draw the "your turn" notification as Chromium shows it (docs/web-notification-desktop.png).

Headless Chromium draws no notification, so this starts a virtual X screen (Xvfb, Debian's
``xvfb``), a local server (the tests' `tests.live_server`), and Chromium with a window on
that screen; the page's service worker is handed a push as the browser's push service
would (CDP ``ServiceWorker.deliverPushMessage``), shows it, and the whole screen is grabbed.

    python scripts/notification_screenshot.py [OUT.png]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from PIL import ImageGrab  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from tests.browser.test_push_page import deliver, worker_registration  # noqa: E402
from tests.live_server import running  # noqa: E402

from yahtzee.service.notifier import notification  # noqa: E402

DISPLAY = ":99"
SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
  .map((n) => n.title)"""


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/web-notification-desktop.png"
    screen = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
    os.environ["DISPLAY"] = DISPLAY
    try:
        with (
            tempfile.TemporaryDirectory() as folder,
            running(f"sqlite:///{folder}/site.db", push_allow_local=True) as address,
            sync_playwright() as playwright,
        ):
            site = f"http://{address}"
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", headless=False,
                args=["--no-sandbox", "--window-size=1280,800", "--window-position=0,0"],
            )  # fmt: skip
            context = browser.new_context(viewport={"width": 1200, "height": 700})
            context.grant_permissions(["notifications"], origin=site)
            page = context.new_page()
            page.goto(f"{site}/")
            page.evaluate("async () => { await navigator.serviceWorker.register('/sw.js'); }")
            cdp, registration = worker_registration(page)
            note = notification("0f3c0c2e-1111-4222-8333-444455556666", ["Bob"], 1)
            deliver(cdp, site, registration, note.payload().decode())
            for _ in range(100):  # shown, then drawn: a few seconds at most
                if page.evaluate(SHOWN):
                    break
                page.wait_for_timeout(100)
            page.wait_for_timeout(1500)  # (the popup's slide-in)
            ImageGrab.grab(xdisplay=DISPLAY).save(out)
            browser.close()
    finally:
        screen.terminate()
        screen.wait(timeout=10)
    print(out)


if __name__ == "__main__":
    main()
