"""Run the ``yahtzee`` command as a user would: a subprocess."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def yahtzee_command() -> list[str]:
    script = Path(sys.executable).with_name("yahtzee")
    if script.exists():
        return [str(script)]
    found = shutil.which("yahtzee")
    return [found] if found else [sys.executable, "-m", "yahtzee"]


def run_cli(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}
    return subprocess.run(
        [*yahtzee_command(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def score_lines(boxes: list[str]) -> list[str]:
    """Plain-mode answers that fill these boxes in turn: each ``score BOX`` is followed by
    ``y``, which confirms a box that scores 0 (and is otherwise answered "no question")."""
    return [line for box in boxes for line in (f"score {box}", "y")]
