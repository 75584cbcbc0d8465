"""The records through the command line, as a user would drive it (subprocesses)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli, score_lines
from tests.test_cli import assert_one_line_error

BOXES = ["aces", "twos", "threes", "fours", "fives", "sixes", "3k", "4k", "fh", "ss", "ls",
         "yahtzee", "chance"]  # fmt: skip


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'records.db'}"


def play_game(db: str, seed: int, names: list[str], extra: list[str] | None = None) -> str:
    answers = score_lines([box for box in BOXES for _ in names])
    result = run_cli("play", *names, "--seed", str(seed), "--database-url", db, *(extra or []),
                     stdin="\n".join(answers) + "\n")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game over." in result.stdout
    return result.stdout


def test_a_game_played_alone_is_no_win(db: str) -> None:
    """Regression: every solo game (a daily game, a game alone) counted as a win in
    stats, and history said it was "won by" its only player."""
    play_game(db, 2, ["Ann"])
    text = run_cli("stats", "--database-url", db).stdout
    assert "Ann: 1 game, played alone, average" in text, text
    assert json.loads(run_cli("stats", "--json", "--database-url", db).stdout)[0]["wins"] == 0
    assert "won by" not in run_cli("history", "--database-url", db).stdout
    play_game(db, 1, ["Ann", "Bob"])
    ann, bob = json.loads(run_cli("stats", "--json", "--database-url", db).stdout)
    assert ann["wins"] + bob["wins"] >= 1 and ann["solo_games"] == 1
    text = run_cli("stats", "--database-url", db).stdout
    assert f"Ann: 2 games, {ann['wins']} win" in text and " of 1 against others" in text


def test_games_played_are_recorded_and_queried(db: str, tmp_path: Path) -> None:
    play_game(db, 1, ["Ann", "Bob"])
    play_game(db, 2, ["Ann"])
    history = json.loads(run_cli("history", "--json", "--database-url", db).stdout)
    assert len(history) == 2 and all(g["status"] == "finished" for g in history)
    bob = json.loads(run_cli("history", "--player", "Bob", "--json", "--database-url", db).stdout)
    assert [g["players"] for g in bob] == [["Ann", "Bob"]]
    text = run_cli("history", "--database-url", db).stdout
    assert text.count("official") == 2
    stats = json.loads(run_cli("stats", "Ann", "--json", "--database-url", db).stdout)
    assert stats[0]["games"] == 2 and stats[0]["player"] == "Ann"
    assert "Ann: 2 games" in run_cli("stats", "--database-url", db).stdout
    scores = json.loads(run_cli("highscores", "--json", "--database-url", db).stdout)
    assert len(scores) == 3 and scores[0]["total"] >= scores[-1]["total"]

    game_id = history[0]["id"]
    replay = run_cli("replay", game_id[:6], "--database-url", db).stdout
    assert replay.count("Round ") == 13 * len(history[0]["players"])
    assert "Final standings:" in replay

    page = tmp_path / "card.html"
    result = run_cli("card", game_id[:8], "--html", str(page), "--database-url", db)
    assert result.returncode == 0, result.stderr
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "@page" in html and "<script" not in html
    assert "Grand total" in html and "Yahtzee bonus" in html and "Upper total" in html
    for total in history[0]["totals"]:
        assert f">{total}</td>" in html
    assert not re.search(r"(src|href)=", html)  # self-contained: nothing loaded from elsewhere


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_import_round_trip(db: str, tmp_path: Path, fmt: str) -> None:
    play_game(db, 3, ["Ann", "Bob"])
    out = tmp_path / f"export.{fmt}"
    assert (
        run_cli("export", "--format", fmt, "--out", str(out), "--database-url", db).returncode == 0
    )
    other = f"sqlite:///{tmp_path / 'other.db'}"
    result = run_cli("import", str(out), "--database-url", other)
    assert result.returncode == 0, result.stderr
    assert "Imported 1 games" in result.stdout
    for command in (["history", "--json"], ["stats", "--json"], ["highscores", "--json"]):
        assert (
            run_cli(*command, "--database-url", other).stdout
            == run_cli(*command, "--database-url", db).stdout
        )
    again = run_cli("export", "--format", fmt, "--database-url", other).stdout
    assert again == out.read_text()


def test_a_game_stopped_mid_turn_resumes(db: str) -> None:
    result = run_cli(
        "play", "Ann", "--seed", "5", "--database-url", db, stdin="score aces\nkeep 1\nquit\n"
    )
    assert "go on later with 'yahtzee play --resume" in result.stdout
    roll_lines = [line for line in result.stdout.splitlines() if line.startswith("Roll")]
    game_id = re.search(r"--resume (\w+)", result.stdout).group(1)  # type: ignore[union-attr]
    again = run_cli("play", "--resume", game_id, "--database-url", db, stdin="card\nquit\n")
    assert again.returncode == 0, again.stderr
    assert "Aces               1" in again.stdout or "Aces" in again.stdout
    replay = run_cli("replay", game_id, "--database-url", db).stdout
    assert roll_lines[-1].split(":")[1].split("(")[0].strip() in replay
    started = run_cli("play", "Cy", "--database-url", db, stdin="quit\n").stdout
    assert "unfinished game" in started


def test_bots_play_their_turns(db: str) -> None:
    answers = "\n".join(score_lines(BOXES)) + "\n"
    result = run_cli(
        "play", "Ann", "--bot", "greedy", "--seed", "8", "--database-url", db, stdin=answers
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Bot 2 (greedy) scores") == 13
    history = json.loads(run_cli("history", "--json", "--database-url", db).stdout)
    assert history[0]["players"] == ["Ann", "Bot 2 (greedy)"] and history[0]["status"] == "finished"
    found = json.loads(run_cli("stats", "--json", "--database-url", db).stdout)
    assert [s["player"] for s in found] == ["Ann", "Bot (greedy)"]  # a bot by its strategy
    ann, bot = found
    assert ann["reviewed_games"] == 1 and ann["loss_per_game"] is not None
    assert bot["reviewed_games"] == 0 and bot["hinted_games"] == 0


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "zzzz"],
        ["replay", "ab"],
        ["card", "0000", "--html", "x.html"],
        ["import", "/no/such/file.json"],
        ["history", "--since", "yesterday"],
        ["history", "--rules", "bogus"],
        ["history", "--database-url", "mysql://nowhere/db"],
        ["stats", "--database-url", "nonsense"],
        ["play", "--bot", "clever"],
        ["play", "--resume", "ffff"],
    ],
)
def test_bad_input_one_line(args: list[str], db: str) -> None:
    if "--database-url" not in args:
        args = [*args, "--database-url", db]
    assert_one_line_error(run_cli(*args, stdin="quit\n"))


def test_history_says_how_far_an_unfinished_game_got(db: str) -> None:
    """Regression: an unfinished game was listed as "You -, Bot 2 - (in progress)"; the
    terminal game's history says the round reached and the scores so far."""
    started = run_cli(
        "play", "--plain", "Ann", "--seed", "3", "--bot", "2", "--database-url", db,
        stdin="score chance\nquit\n",
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    listed = run_cli("history", "--database-url", db)
    assert listed.returncode == 0, listed.stderr
    line = listed.stdout.strip()
    assert line.endswith("(unfinished, round 2 of 13)"), line
    you, bot = re.findall(r"(?:Ann|Bot \d \(level 2\)) (\d+)", line)
    assert int(you) > 0 and int(bot) > 0


@pytest.fixture
def read_only_copy(tmp_path: Path) -> Iterator[Path]:
    """A folder mounted read-only over another (a read-only file system, as on a live CD
    or a locked-down share); skipped where this process may not mount."""
    source, view = tmp_path / "source", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    try:
        subprocess.run(["mount", "--bind", str(source), str(view)], check=True,
                       capture_output=True, timeout=30)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        pytest.skip("this process may not mount a folder read-only (needs root)")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True,
                       capture_output=True, timeout=30)  # fmt: skip
        yield source
    finally:
        subprocess.run(["umount", str(view)], check=False, capture_output=True, timeout=30)


def test_the_records_read_on_a_read_only_file_system(read_only_copy: Path) -> None:
    """Regression: every reading command said "Cannot open the database"."""
    writable_url = f"sqlite:///{read_only_copy / 'games.db'}"
    play_game(writable_url, 5, ["Ann"])
    listed = json.loads(run_cli("history", "--json", "--database-url", writable_url).stdout)
    game_id = listed[0]["id"][:8]
    url = f"sqlite:///{read_only_copy.parent / 'view' / 'games.db'}"
    for command in (["history"], ["stats"], ["highscores"], ["export"], ["replay", game_id]):
        done = run_cli(*command, "--database-url", url)
        assert done.returncode == 0, (command, done.stderr)
        assert "Ann" in done.stdout, (command, done.stdout)
    export = read_only_copy.parent / "export.json"
    export.write_text(run_cli("export", "--database-url", url).stdout)
    written = run_cli("import", str(export), "--database-url", url)
    assert written.returncode == 2 and len(written.stderr.strip().splitlines()) == 1
