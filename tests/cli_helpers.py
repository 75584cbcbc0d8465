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


def run_cli(
    *args: str, stdin: str = "", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``yahtzee ARGS``; ``env`` adds to (or with "" empties) the environment's variables."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100", **(env or {})}
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


PAD_A = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "3k": 25,
         "4k": 0, "fh": 25, "ss": 30, "ls": 40, "yahtzee": 0, "chance": 20}  # fmt: skip
"""A whole card written in by quick score entry: upper 63 (bonus 35), total 238."""
PAD_A_TOTAL = 238
PAD_B = {"aces": 2, "twos": 4, "threes": 6, "fours": 8, "fives": 10, "sixes": 12, "3k": 20,
         "4k": 0, "fh": 0, "ss": 30, "ls": 0, "yahtzee": 0, "chance": 22}  # fmt: skip
"""Another: upper 42 (no bonus), total 114."""
PAD_B_TOTAL = 114


def pad_lines(*cards: dict[str, int]) -> list[str]:
    """Plain-mode lines of a game of real dice written in box by box (``write BOX POINTS``),
    round by round, each player's card in seat order."""
    rounds = zip(*(list(card.items()) for card in cards), strict=True)
    return [f"write {box} {points}" for row in rounds for box, points in row]
