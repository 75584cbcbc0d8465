"""``yahtzee daily`` in plain mode (issue 29, item 3): the day's dice for everyone, the
result with the skill and the yardstick, one game a day, a line to share."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli_helpers import run_cli

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k", "fh", "ss", "ls",
         "yahtzee", "chance"]  # fmt: skip
SCRIPT = "".join(f"s {box}\ny\n" for box in BOXES)


def test_two_players_get_the_same_dice_and_a_second_game_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    ann = run_cli("daily", "Ann", "--database-url", url, stdin=SCRIPT, timeout=300)
    bob = run_cli("daily", "Bob", "--database-url", url, stdin=SCRIPT, timeout=300)
    assert ann.returncode == bob.returncode == 0, ann.stderr + bob.stderr
    rolls = [re.findall(r"Roll 1: ([1-6 ]+)", done.stdout) for done in (ann, bob)]
    assert len(rolls[0]) == 13 and rolls[0] == rolls[1]  # the same decisions, the same dice
    assert "it is not ranked" in ann.stdout
    score = re.search(r"Your score: (\d+)\. Optimal play on today's dice: (\d+)\.", ann.stdout)
    assert score is not None and int(score.group(1)) <= int(score.group(2))
    assert re.search(r"Your skill: [0-9.]+ points lost to the best choices", ann.stdout)
    share = re.search(r"To share: (Yahtzee daily \S+: \d+ points .*)", ann.stdout)
    assert share is not None and "Roll" not in share.group(1)
    again = run_cli("daily", "Ann", "--database-url", url, stdin="s aces\n")
    assert again.returncode == 2
    assert "has played the daily game of" in again.stderr and "Come back tomorrow" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1


def test_a_daily_game_stopped_goes_on_the_same_day(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    first = run_cli("daily", "Cy", "--database-url", url, stdin="s aces\ny\nquit\n")
    assert first.returncode == 0 and "goes on with it today" in first.stdout
    rest = "".join(f"s {box}\ny\n" for box in BOXES[1:])
    second = run_cli("daily", "Cy", "--database-url", url, stdin=rest, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "Your score:" in second.stdout
