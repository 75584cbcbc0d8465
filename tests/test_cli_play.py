"""``yahtzee play``: a whole seeded game from a script of answers, as a subprocess."""

from __future__ import annotations

from tests.cli_helpers import run_cli
from yahtzee import Category

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k", "fh", "ss", "ls",
         "yahtzee", "chance"]  # fmt: skip


def test_whole_solo_game_from_a_script_with_bad_answers() -> None:
    answers = ["score bogus", "keep 7", "", "dance", "score aces"]
    answers += ["score aces", "card", "boxes", "help", "roll", "keep -", "score twos"]
    answers += [f"score {box}" for box in BOXES[2:]]
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
    assert "1. Ann:" in out and "(winner)" in out


def test_scores_go_to_the_engine_totals() -> None:
    answers = [f"score {box}" for box in BOXES]
    first = run_cli("play", "--plain", "--seed", "3", stdin="\n".join(answers) + "\n").stdout
    second = run_cli("play", "--plain", "--seed", "3", stdin="\n".join(answers) + "\n").stdout
    assert first == second  # the seed makes the game reproducible
    assert first.count(" scores ") == 13
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
