"""SVG snapshots of the daily game's result screen at 80x24 and 120x40: a fixed day's
dice (the day's own seed), scripted decisions, nothing recorded (so one day played).

Update them (after a deliberate change of the look, looked at by a person) with
``pytest tests/tui/test_daily_snapshot.py --snapshot-update``; ``python -m
tests.tui.test_daily_snapshot`` writes docs/tui-daily.svg, the guide's picture.
"""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.daily_helpers import advised_turns, open_daily
from tests.tui.helpers import workers_done
from yahtzee.service import daily
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.daily_result import DailyResultScreen

DAY = date(2026, 12, 2)
SIZES = [(80, 24), (120, 40)]
SLIPS = frozenset({4, 9, 12})
"""The rounds the player takes the advisor's second choice: a few points lost."""
DOCS = Path(__file__).parents[2] / "docs" / "tui-daily.svg"


async def daily_result(pilot: Pilot[None]) -> None:
    app: Any = pilot.app
    await open_daily(pilot)
    await asyncio.wait_for(advised_turns(pilot, app, SLIPS), 300)
    assert isinstance(app.screen, DailyResultScreen)
    await workers_done(app, 300)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_daily_result(
    snap_compare: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setattr(daily, "today", lambda: DAY)
    app = YahtzeeApp(None, bot_pause=0, offer_resume=False)
    assert snap_compare(app, terminal_size=size, run_before=daily_result)


async def _write_docs() -> None:
    daily.today = lambda: DAY  # type: ignore[assignment]
    app = YahtzeeApp(None, bot_pause=0, offer_resume=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await daily_result(pilot)
        DOCS.write_text(app.export_screenshot(title="yahtzee daily"), encoding="utf-8")
    print(f"wrote {DOCS}")


if __name__ == "__main__":
    asyncio.run(_write_docs())
