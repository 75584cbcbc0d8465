"""Regenerate docs/play-screen.svg, the README's picture of the play screen.

``python docs/make_screenshot.py`` (uses a throwaway database; seeded dice).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp

OUT = Path(__file__).parent / "play-screen.svg"


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder, Store(f"sqlite:///{folder}/r.db") as store:
        app = YahtzeeApp(store, seed=3, bot_pause=0)
        async with app.run_test(size=(100, 28)) as pilot:
            await pilot.press("ctrl+b", "ctrl+s")
            await pilot.pause()
            for keys in (["r", "1", "2", "r", "enter"], ["r", "3", "r", "enter", "y"]):
                for key in keys:
                    await pilot.press(key)
                    await pilot.pause(0.2)
            await pilot.press("r", "2", "3", "h")
            await pilot.pause(0.5)
            OUT.write_text(app.export_screenshot(title="yahtzee"), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    asyncio.run(main())
