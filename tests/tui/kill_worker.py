"""A terminal game in a process of its own: start a seeded solo game, roll, keep two dice,
roll again, print the state, and wait to be killed.

``python -m tests.tui.kill_worker DATABASE_URL``
"""

from __future__ import annotations

import asyncio
import json
import sys

from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp


async def main(url: str) -> None:
    store = Store(url)
    app = YahtzeeApp(store, seed=21, bot_pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("1", "3", "r")
        await pilot.pause()
        assert app.session is not None
        turn = app.session.game.turn
        assert turn is not None and turn.dice is not None
        print(
            json.dumps(
                {
                    "dice": str(turn.dice),
                    "kept": str(turn.kept),
                    "rolls": turn.rolls,
                    "keep": str(app.session.keep),
                }
            ),
            flush=True,
        )  # type: ignore[attr-defined]
        await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
