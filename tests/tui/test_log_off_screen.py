"""What the library logs (a failed meter reading, a failed bot move) never lands on the
terminal over the game: while the game is on the screen it goes to Textual's log, and a
command line's warning is one line, never a traceback."""

from __future__ import annotations

import logging
import sys

import pytest
from textual.logging import TextualHandler
from textual.pilot import Pilot

from tests.tui.screens_helpers import run_app
from yahtzee.cli import _OneLine
from yahtzee.tui import YahtzeeApp

LOG = logging.getLogger("yahtzee")


def test_while_the_game_is_shown_its_log_goes_to_textual_and_after_it_back(
    capfd: pytest.CaptureFixture[str],
) -> None:
    before = logging.StreamHandler(sys.stderr)
    LOG.addHandler(before)
    seen: list[list[logging.Handler]] = []

    async def steps(pilot: Pilot[None], app: YahtzeeApp) -> None:
        seen.append(LOG.handlers[:])
        try:
            raise RuntimeError("the meter broke")
        except RuntimeError:
            logging.getLogger("yahtzee.service.meters").exception("a meter reading failed")

    try:
        run_app(steps)
        shown = capfd.readouterr()
        assert [type(h) for h in seen[0]] == [TextualHandler]
        assert "meter" not in shown.err and "Traceback" not in shown.err
        assert before in LOG.handlers  # given back as the app ends
    finally:
        LOG.removeHandler(before)


def test_a_command_lines_warning_is_one_line_without_its_traceback() -> None:
    try:
        raise OSError("disk full")
    except OSError:
        record = LOG.makeRecord(
            "yahtzee", logging.ERROR, __file__, 1, "the cache is damaged", (), sys.exc_info()
        )
    assert _OneLine().format(record) == "yahtzee: the cache is damaged"
