"""SVG snapshots of the terminal game in German (issue 55): the new-game screen and the
play screen (one player and four, seeded dice, the hint shown) at 80x24, where German's
longer words must still fit.

They read the compiled German catalog (``locale/de/LC_MESSAGES/yahtzee.mo``); after a
change of the German words the snapshots are made again (and looked at by a person):
``pytest tests/tui/test_snapshots_de.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_snapshots import SCREENS, Steps
from yahtzee.core.language import set_language
from yahtzee.store import Seat, Store
from yahtzee.tui import YahtzeeApp


@pytest.fixture
def german() -> Iterator[None]:
    """The game speaks German for the test, English again after it."""
    set_language("de")
    try:
        yield
    finally:
        set_language("en")


async def nothing(pilot: Any) -> None:
    await pilot.pause()


DE_SCREENS: dict[str, tuple[int, Steps]] = {
    "new_game": (0, nothing),
    "play-1": SCREENS["play-1"],
    "play-4": SCREENS["play-4"],
    "hint": SCREENS["hint"],
}
"""The screens: how many players sit down at once (none: the new-game screen), and the
steps taken before the snapshot."""


@pytest.mark.parametrize("screen", list(DE_SCREENS))
def test_screen_in_german(german: None, snap_compare: Any, tmp_path: Path, screen: str) -> None:
    players, steps = DE_SCREENS[screen]
    seats = [Seat(name) for name in ("Du", "Anna", "Jörg", "Lea")][:players]
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    app = YahtzeeApp(store, seed=3, bot_pause=0, seats=seats, offer_resume=False)
    try:
        assert snap_compare(app, terminal_size=(80, 24), run_before=steps)
    finally:
        store.close()
