"""``yahtzee play``: a whole seeded game from a script of answers, as a subprocess."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from pathlib import Path

from tests.cli_helpers import run_cli, score_lines, yahtzee_command
from tests.waiting import ended, wait_until
from yahtzee import Category

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k", "fh", "ss", "ls",
         "yahtzee", "chance"]  # fmt: skip


def test_whole_solo_game_from_a_script_with_bad_answers() -> None:
    answers = ["score bogus", "keep 7", "", "dance", *score_lines(["aces"])]
    answers += ["score aces", "card", "boxes", "help", "roll", "keep -", *score_lines(["twos"])]
    answers += score_lines(BOXES[2:])
    result = run_cli("play", "--plain", "Ann", "--seed", "7", stdin="\n".join(answers) + "\n")
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "Unknown box 'bogus'" in out
    assert "'7' is not a die face" in out
    assert "Type a command" in out
    assert "Unknown command 'dance'" in out
    assert "Aces is already filled" in out
    assert out.count("Round ") == 13
    assert "Game over." in out
    assert "Final score: 41" in out and "(winner)" not in out  # a solo game has no winner


def test_scores_go_to_the_engine_totals() -> None:
    answers = score_lines(BOXES)
    first = run_cli("play", "--plain", "--seed", "3", stdin="\n".join(answers) + "\n").stdout
    second = run_cli("play", "--plain", "--seed", "3", stdin="\n".join(answers) + "\n").stdout
    assert first == second  # the seed makes the game reproducible
    assert first.count("You score ") == 13  # the default player is spoken to
    assert all(Category.parse(box).display_name in first for box in BOXES)


def test_no_arguments_starts_a_game_and_quit_or_eof_stops_it() -> None:
    result = run_cli(stdin="quit\n")
    assert result.returncode == 0
    assert "Round 1 of 13" in result.stdout and "Game stopped." in result.stdout
    result = run_cli("play", "A", "B", stdin="")
    assert result.returncode == 0 and "Game stopped." in result.stdout


def test_bad_player_names_one_line() -> None:
    result = run_cli("play", "Ann", "ann")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "yahtzee: error: Two players have the same name; give each a different name."
    )


def test_a_box_that_scores_zero_asks_first() -> None:
    answers = ["s yahtzee", "n", "s yahtzee", "maybe", "s yahtzee", "", "card", "s yahtzee", "y"]
    result = run_cli("play", "--plain", "--no-record", "--seed", "1",
                     stdin="\n".join([*answers, "card", "quit"]) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    question = "Yahtzee scores 0 here. Score it anyway? [y/N] "
    assert out.count(question) == 4  # one line, asked each time
    assert out.count("Not scored: Yahtzee is still open.") == 3  # anything but y keeps it open
    cards = out.split("Yahtzee            ")
    assert cards[1].startswith("-") and cards[2].startswith("0")  # before and after the "y"
    assert "You score 0 in Yahtzee. Total 0." in out  # the default player is spoken to


def test_named_players_are_spoken_of() -> None:
    result = run_cli("play", "--plain", "Ann", "--no-record", "--seed", "1",
                     stdin="s chance\nquit\n")  # fmt: skip
    assert "Ann scores " in result.stdout and "Ann score " not in result.stdout


def test_a_huge_line_is_not_echoed_back() -> None:
    huge = "x" * 100_000
    lines = [huge, f"s {huge}", f"k {'1' * 100_000}", f"roll {huge}", "quit"]
    result = run_cli("play", "--plain", "--no-record", "--seed", "1", stdin="\n".join(lines))
    assert result.returncode == 0, result.stderr
    assert len(result.stdout) < 5_000
    replies = [line for line in result.stdout.splitlines() if line.startswith("You> ")]
    assert len(replies) == 5
    assert all(len(line) < 250 and ("xxx..." in line or "111..." in line) for line in replies[:4])


def test_hint_is_in_help_and_answers() -> None:
    result = run_cli("play", "--plain", "--no-record", "--seed", "1", stdin="help\nhint\nquit\n")
    assert result.returncode == 0, result.stderr
    help_text = result.stdout.split("Commands:")[1]
    assert "  hint " in help_text
    advisor = result.stdout.split("Advisor (expected final total with optimal play):")[1]
    assert "best  keep" in advisor


def test_ctrl_c_in_plain_mode_says_how_to_go_on(tmp_path: Path) -> None:
    """Regression: Ctrl-C left without the "Saved: go on later with ..." line that quit
    prints; the game is kept as it stood."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    proc = subprocess.Popen(
        [*yahtzee_command(), "play", "--plain", "--seed", "7", "--database-url", url],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: proc.stdout.read(1), "")))  # type: ignore[union-attr]
    with ended(proc):
        reader.start()
        wait_until(lambda: "You> " in "".join(seen), timeout=60, what="the first prompt")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
        reader.join(timeout=10)
        errors = proc.stderr.read()  # type: ignore[union-attr]
    out = "".join(seen)
    assert "Game stopped." in out
    saved = re.search(r"Saved: go on later with 'yahtzee play --resume (\w+)'", out)
    assert saved is not None, out
    assert "Traceback" not in errors
    resumed = run_cli("play", "--plain", "--resume", saved[1], "--database-url", url, stdin="quit")
    assert resumed.returncode == 0 and saved[1] in resumed.stdout, resumed.stdout


def test_undo_against_a_bot_waits_for_the_player_and_says_when_it_is_off() -> None:
    """Issue 50.3: ``play --bot`` had no undo; now ``--undo`` lets the player take a
    placement back before the bot rolls: the bot waits for Enter. Without it, ``undo``
    says it is off and how to allow it."""
    answers = ["score chance", "undo", "score chance", "", "quit"]
    result = run_cli("play", "--plain", "You", "--bot", "3", "--undo", "--seed", "5", "--no-record",
                     stdin="\n".join(answers) + "\n")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    waiting = "Bot 2 (level 3) plays next. Enter goes on, 'undo' takes back Chance> "
    assert out.count(waiting) == 2
    assert "Taken back: your Chance; the box is open again." in out
    assert out.index("Taken back") < out.index("Bot 2 (level 3) scores")  # before it played
    assert "Round 2 of 13: You" in out
    off = run_cli("play", "--plain", "You", "--bot", "3", "--seed", "5", "--no-record",
                  stdin="score chance\nundo\nquit\n")  # fmt: skip
    assert "plays next" not in off.stdout  # undo off: the bot plays at once
    assert (
        "Taking back a placement is off in this game. Start the game with "
        "'yahtzee play --undo' to allow it." in off.stdout
    )
