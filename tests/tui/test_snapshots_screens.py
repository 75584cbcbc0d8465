"""SVG snapshots of the screens around play, at 80x24 and 120x40: the new-game screen
(its whole footer; with a bot that plays to win), the resume offer, the history with
unfinished and finished games, a replayed turn, the game-over screen and its review,
statistics and the help. Recorded games have fixed ids, dice and dates, so every run draws
the same.

Update them (after a deliberate change of the look, and after looking at them) with
``pytest tests/tui/test_snapshots_screens.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from tests.tui.helpers import workers_done
from tests.tui.screens_helpers import FINISHED_ID, all_kinds, finished_solo, record
from yahtzee.service import GameSession
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp
from yahtzee.tui.over_screen import GameOverScreen

SIZES = [(80, 24), (120, 40)]
Steps = Callable[[Pilot[None]], Awaitable[None]]


def two_finished(store: Store) -> None:
    """An earlier finished solo game (the best to beat), then the one that just ended."""
    record(store, "aaaa0000-0000-4000-8000-000000000009", [Seat("You")], seed=9,
           when=datetime(2026, 10, 1, 18, 0, tzinfo=UTC))  # fmt: skip
    finished_solo(store)


async def nothing(pilot: Pilot[None]) -> None:
    await pilot.pause()


async def history(pilot: Pilot[None]) -> None:
    await pilot.press("f2")
    await pilot.pause()


async def replay(pilot: Pilot[None]) -> None:
    await history(pilot)
    await pilot.press("down", "down", "enter")  # the finished game, below the unfinished
    await pilot.pause()
    await pilot.press("right", "right")  # its third turn
    await pilot.pause()


async def game_over(pilot: Pilot[None]) -> None:
    app: Any = pilot.app
    app.push_screen(GameOverScreen(GameSession.resume(app.store, FINISHED_ID)))
    await pilot.pause()
    await workers_done(app)  # the review
    await pilot.pause()


async def review(pilot: Pilot[None]) -> None:
    await game_over(pilot)
    await pilot.press("pagedown")
    await pilot.pause()


async def statistics(pilot: Pilot[None]) -> None:
    await pilot.press("f3")
    await pilot.pause()


async def help_keys(pilot: Pilot[None]) -> None:
    await pilot.press("f1")
    await pilot.pause()


async def new_game_bots(pilot: Pilot[None]) -> None:
    """The new-game screen with a bot that plays to win, and undo ticked (issue 50)."""
    await pilot.pause()
    await pilot.press("ctrl+b")
    await pilot.pause()
    app: Any = pilot.app
    kind = list(app.screen.query(".seat-kind").results(Select))[-1]
    kind.value = "winning"
    await pilot.click("#undo")
    await pilot.pause()


def empty(store: Store) -> None:
    pass


# name: (records, offer to resume, steps)
SCREENS: dict[str, tuple[Callable[[Store], Any], bool, Steps]] = {
    "new_game": (empty, True, nothing),
    "new_game_bots": (empty, False, new_game_bots),
    "resume_offer": (all_kinds, True, nothing),
    "history": (all_kinds, False, history),
    "replay": (all_kinds, False, replay),
    "game_over": (two_finished, False, game_over),
    "review": (two_finished, False, review),
    "statistics": (two_finished, False, statistics),
    "help": (empty, False, help_keys),
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen(snap_compare: Any, tmp_path: Path, screen: str, size: tuple[int, int]) -> None:
    records, offer, steps = SCREENS[screen]
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    try:
        records(store)
        app = YahtzeeApp(store, seed=3, bot_pause=0, offer_resume=offer)
        assert snap_compare(app, terminal_size=size, run_before=steps)
    finally:
        store.close()
