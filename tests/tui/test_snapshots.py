"""SVG snapshots of the screens, seeded dice, at 80x24 and 120x40.

Update them (after a deliberate change of the look) with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import play_to_the_end, settle
from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.widgets import ScoreCard

SIZES = [(80, 24), (120, 40)]
Steps = Callable[[Pilot[None]], Awaitable[None]]


async def new_game(pilot: Pilot[None]) -> None:
    await pilot.pause()


async def play(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+s")
    await pilot.pause()
    await pilot.press("r", "1", "2")
    await pilot.pause()


async def hint(pilot: Pilot[None]) -> None:
    await play(pilot)
    await pilot.press("h")
    await settle(pilot)


async def zero_confirm(pilot: Pilot[None]) -> None:
    await play(pilot)
    app: Any = pilot.app
    options = app.session.placements()
    zero = next(c for c, p in sorted(options.items()) if p.total == 0)
    table = app.screen.query_one(ScoreCard)
    target = int(zero) + (2 if zero.is_lower else 0)
    await pilot.press(*(["down"] * (target - table.cursor_row)))
    await pilot.press("enter")
    await pilot.pause()


async def game_over(pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+s")
    await pilot.pause()
    await play_to_the_end(pilot, pilot.app)  # type: ignore[arg-type]


async def statistics(pilot: Pilot[None]) -> None:
    await game_over(pilot)
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("f3")
    await pilot.pause()


SCREENS: dict[str, Steps] = {
    "new_game": new_game,
    "play": play,
    "hint": hint,
    "zero_confirm": zero_confirm,
    "game_over": game_over,
    "statistics": statistics,
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen(snap_compare: Any, tmp_path: Path, screen: str, size: tuple[int, int]) -> None:
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    app = YahtzeeApp(store, seed=3, bot_pause=0)
    try:
        assert snap_compare(app, terminal_size=size, run_before=SCREENS[screen])
    finally:
        store.close()
