"""Regenerate docs/play-screen.svg, the README's picture of the play screen,
docs/tui-yatzy.svg, a Yatzy card of four players at 80x24, and docs/tui-de.svg, the play
screen in German at 80x24 (the advisor's hint shown).

``python docs/make_screenshot.py`` (uses a throwaway database; seeded dice).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from yahtzee.core import RuleSet
from yahtzee.core.language import set_language
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp

OUT = Path(__file__).parent / "play-screen.svg"
YATZY_OUT = Path(__file__).parent / "tui-yatzy.svg"
YATZY_ROUNDS = 4
GERMAN_OUT = Path(__file__).parent / "tui-de.svg"


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
    await yatzy()
    await german()


async def yatzy() -> None:
    """Four players some rounds into a game of Yatzy: its fifteen boxes, the 50-point bonus
    at 63, the box keys, on an 80x24 terminal."""
    seats = [Seat(name) for name in ("You", "Ann", "Bob", "Cleo")]
    app = YahtzeeApp(None, seed=11, bot_pause=0, seats=seats, rules=RuleSet.named("yatzy"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(YATZY_ROUNDS * len(seats)):
            for key in ("r", "1", "2", "r", "enter", "y"):
                await pilot.press(key)
                await pilot.pause(0.1)
        await pilot.press("r", "4", "5")
        await pilot.pause(0.5)
        YATZY_OUT.write_text(app.export_screenshot(title="yatzy"), encoding="utf-8")
    print(f"wrote {YATZY_OUT}")


async def german() -> None:
    """Three players in German, a few rounds in: Kniffel's box names, the advisor's hint
    with decimal commas, the footer's keys, on an 80x24 terminal."""
    set_language("de")
    try:
        seats = [Seat(name) for name in ("Du", "Anna", "Jörg")]
        app = YahtzeeApp(None, seed=5, bot_pause=0, seats=seats)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(2 * len(seats)):
                for key in ("r", "1", "2", "r", "enter", "y"):
                    await pilot.press(key)
                    await pilot.pause(0.1)
            await pilot.press("r", "h")
            await pilot.pause(0.5)
            GERMAN_OUT.write_text(app.export_screenshot(title="yahtzee"), encoding="utf-8")
    finally:
        set_language("en")
    print(f"wrote {GERMAN_OUT}")


if __name__ == "__main__":
    asyncio.run(main())
