"""The help: every key of every screen, wrapped cleanly at 80 columns."""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.pilot import Pilot

from tests.tui.screens_helpers import run_app
from yahtzee.core import RuleSet
from yahtzee.tui import YahtzeeApp
from yahtzee.tui import help_screen as help_module
from yahtzee.tui.daily_result import DailyResultScreen
from yahtzee.tui.entry import WriteScreen, YahtzeeOfScreen
from yahtzee.tui.over_screen import GameOverScreen
from yahtzee.tui.play_screen import ConfirmZero, PlayScreen
from yahtzee.tui.records_screen import HistoryScreen, OpenTable
from yahtzee.tui.replay_screen import ReplayScreen
from yahtzee.tui.setup_screen import NewGameScreen, ResumeScreen

SCREENS = [
    YahtzeeApp,
    NewGameScreen,
    ResumeScreen,
    PlayScreen,
    ConfirmZero,
    WriteScreen,
    YahtzeeOfScreen,
    HistoryScreen,
    OpenTable,
    ReplayScreen,
    GameOverScreen,
    DailyResultScreen,
    help_module.HelpScreen,
]
NAMES = {"question_mark": "?", "escape": "esc"}
LEFT_OUT = {"tab", "shift+tab"}  # Textual's own focus keys


def help_keys() -> set[str]:
    return {
        key
        for _title, section in help_module.every_key()
        for keys, _ in section
        for key in re.split(r", | ", keys)
    }


@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: s.__name__)
def test_the_help_lists_every_key_of_every_screen(screen: type) -> None:
    listed = help_keys()
    bindings: list[Any] = getattr(screen, "BINDINGS", [])
    for binding in (b for b in bindings if isinstance(b, Binding)):
        for name in binding.key.split(","):
            key = NAMES.get(name.strip(), name.strip())
            if key not in LEFT_OUT:
                assert key in listed, f"{screen.__name__}: {key} ({binding.description})"


def test_the_help_names_ctrl_b_and_every_box_key() -> None:
    listed = help_keys()
    assert "ctrl+b" in listed
    assert set("abcdefgijklyn") <= listed


def rendered(width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(help_module.help_text(RuleSet.official()))
    return console.export_text().splitlines()


def test_the_help_wraps_cleanly_at_80_columns() -> None:
    """Regression: hand-wrapped lines broke raggedly at 80 columns. A key's description
    wraps within its column; the rules wrap as paragraphs, every line as full as the
    next word allows."""

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        await pilot.press("f1")
        await pilot.pause()
        width = app.screen.query_one("#help-text").content_region.width
        assert width < 72
        lines = rendered(width)
        rules_at = lines.index("Rules")
        column = help_module.KEY_WIDTH + 2
        titles = {title for title, _keys in help_module.every_key()}
        for line in lines[:rules_at]:
            assert len(line) <= width
            if not line.strip() or line in titles:
                continue
            # a key and its description, or a description's next line, in its column
            assert line[column - 2 : column] == "  " and line[column] != " ", line
        paragraph = lines[rules_at + 1 :]
        for line, after in itertools.pairwise(paragraph):
            if line and after:  # greedy wrap: the next word did not fit on this line
                assert len(line) + 1 + len(after.split()[0]) > width, (line, after)

    run_app(steps)
