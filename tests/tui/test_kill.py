"""A terminal game killed with SIGKILL mid-turn resumes at the same roll, same dice,
same kept dice: nothing played is lost."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.waiting import LineReader, ended
from yahtzee.store import Store
from yahtzee.tui import YahtzeeApp

ROOT = Path(__file__).resolve().parents[2]


def test_killed_mid_turn_resumes_exactly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.db'}"
    proc = subprocess.Popen([sys.executable, "-m", "tests.tui.kill_worker", url], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    with ended(proc):  # killed and reaped also when the worker fails or never answers
        assert proc.stdout is not None and proc.stderr is not None
        line = LineReader(proc.stdout).next_line(timeout=120)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert line, proc.stderr.read()
    before = json.loads(line)
    assert before["rolls"] == 2 and len(before["kept"]) == 2

    async def resume() -> None:
        with Store(url) as store:
            app = YahtzeeApp(store, bot_pause=0)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                assert type(app.screen).__name__ == "ResumeScreen"
                await pilot.press("y")
                await pilot.pause()
                assert app.session is not None
                turn = app.session.game.turn
                assert turn is not None and turn.dice is not None
                assert str(turn.dice) == before["dice"]
                assert str(turn.kept) == before["kept"]
                assert turn.rolls == before["rolls"] == 2
                # the same dice held (the places are laid out anew: they are not kept)
                assert str(app.session.keep) == before["keep"]
                assert sum(app.screen.held) == 2  # type: ignore[attr-defined]
                await pilot.press("r")  # and play goes on: the third roll
                await pilot.pause()
                assert app.session.game.turn is not None
                assert app.session.game.turn.rolls == 3

    asyncio.run(resume())
