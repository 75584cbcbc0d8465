"""SVG snapshots of the play screen, seeded dice, at 80x24 and 120x40, with 1, 2 and 4
players, and against a bot waiting while a box may be taken back (the other screens:
``test_snapshots_screens.py``).

Update them (after a deliberate change of the look, looked at by a person) with
``pytest --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import settle
from yahtzee.core import BotSpec
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp, play_screen
from yahtzee.tui.widgets import BOX_KEYS

SIZES = [(80, 24), (120, 40)]
Steps = Callable[[Pilot[None]], Awaitable[None]]


async def play(pilot: Pilot[None]) -> None:
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
    await pilot.press(BOX_KEYS[zero])
    await pilot.pause()


async def scored(pilot: Pilot[None]) -> None:
    """A box just filled: the card shows it plainly, undo is offered."""
    await play(pilot)
    await pilot.press("n")
    await pilot.pause()


SCREENS: dict[str, tuple[int, Steps]] = {
    "play-1": (1, play),
    "play-2": (2, play),
    "play-4": (4, play),
    "hint": (1, hint),
    "zero_confirm": (1, zero_confirm),
    "scored": (1, scored),
}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen(snap_compare: Any, tmp_path: Path, screen: str, size: tuple[int, int]) -> None:
    players, steps = SCREENS[screen]
    seats = [Seat("You"), *(Seat(f"Player {n}") for n in range(2, players + 1))]
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    app = YahtzeeApp(store, seed=3, bot_pause=0, seats=seats, offer_resume=False)
    try:
        assert snap_compare(app, terminal_size=size, run_before=steps)
    finally:
        store.close()


async def undo_against_a_bot(pilot: Pilot[None]) -> None:
    """A box filled against a bot with undo on: the bot waits, counting down (issue 50)."""
    await pilot.pause()
    await pilot.press("r", "n")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_undo_against_a_bot(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    monkeypatch.setattr(play_screen, "clock", lambda: 0.0)  # the countdown stands still
    seats = [Seat("You"), Seat("Bot 2 (winning)", BotSpec("winning"))]
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    app = YahtzeeApp(store, seed=3, bot_pause=0, seats=seats, offer_resume=False, undo=True)
    try:
        assert snap_compare(app, terminal_size=size, run_before=undo_against_a_bot)
    finally:
        store.close()
