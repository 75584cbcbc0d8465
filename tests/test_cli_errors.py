"""Every command of the README's command line, given bad input: exit 2 with one clear line
on stderr, never a traceback or an "internal error"; and a command that only reads the
records creates no file or folder. Every case runs in this process and a few of each kind
as a fresh ``yahtzee`` process, each with data folders of its own, never the user's."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.cli_helpers import yahtzee_command
from yahtzee.cli import main

HUGE = "x" * 100_000
LONGEST_LINE = 500
"""No error line is longer: what it quotes of the input is cut."""

# (arguments, words the error line must hold). {tmp} is a folder of the test's own.
CASES: list[tuple[list[str], str]] = [
    ([HUGE], "invalid choice"),
    (["--frobnicate"], "unrecognized arguments"),
    (["play", "--seed", "abc"], "a seed is a whole number"),
    (["play", "--seed", "-1"], "a seed is a whole number"),
    (["play", "--seed", "4.5"], "a seed is a whole number"),
    (["play", "--seed", "1" * 40], "a seed is a whole number"),
    (["play", "--seed", "\u0663"], "a seed is a whole number"),  # an Arabic-Indic three
    (["play", "--bot", "clever"], "Unknown strategy"),
    (["play", "--bot", HUGE], "Unknown strategy"),
    (["play", HUGE], "Player names are 1 to"),
    (["play", *(f"P{i}" for i in range(9))], "players"),
    (["play", "--rules", HUGE], "rule"),
    (["play", "--resume", "zzzz"], "No games are recorded yet"),
    (["play", "--resume", "abcd", "--no-record"], "leave out --no-record"),
    (["score", HUGE], "die face"),
    (["score", "12345", "--box", HUGE], "Unknown box"),
    (["score", "12345", "--card", HUGE], ""),
    (["rules", HUGE], "rule"),
    (["rules", "bogus"], "yatzy+fh5+tp4+forced (add '+playoff' to any of them)"),  # was cut
    (["solve", "--rules", "nope"], "rule"),
    (["advise", HUGE], ""),
    (["advise", "13356", "2", "--top", "-1"], "--top"),
    (["advise", "13356", "2", "--top", "0"], "--top: takes a whole number from 1"),  # listed all
    (["advise", "13356", "2", "--top", "many"], "--top"),
    (["advise", "13356", "2", "--target", "many"], "--target: takes a whole number"),
    (["advise", "13356", "2", "--target", "-300"], "--target"),
    (["advise", "13356", "2", "--target", "9" * 40], "--target"),
    (["advise", "13356", "2", "--target", "5000"], "A target can be at most 600 points above"),
    (["advise", "1335", "2", "--target", "300"], "five dice"),
    (["simulate", "--players", "0"], "--players: takes a whole number from 1 to 8, not 0"),
    (["simulate", "--players", "-1"], "--players"),
    (["simulate", "--players", "9"], "--players"),
    (["simulate", "--players", "two"], "--players"),
    (["simulate", "-n", "0"], "--games"),
    (["simulate", "-n", "9" * 40], "--games"),
    (["simulate", "--seed", "x"], "a seed is a whole number"),
    (["simulate", "--strategy", HUGE], "Unknown strategy"),
    (["simulate", "--strategy", ","], "--strategy"),
    (["simulate", "--strategy", "winning,clever"], "Unknown strategy"),
    (["simulate", "--plot", "scores.txt"], "PNG"),
    (["history", "--limit", "0"], "--limit"),
    (["history", "--limit", "9" * 40], "--limit"),
    (["history", "--since", HUGE], "is not a date"),
    (["history", "--rules", HUGE], "rule"),
    (["history", "--database-url", HUGE], "is not a database URL"),
    (["history", "--database-url", "mysql://nowhere/db"], "is not supported"),
    (["history", "--database-url", "sqlite:///{tmp}/notes.txt"], "is not a yahtzee database"),
    (["history", "--database-url", "sqlite:///{tmp}/other.db"], "is not a yahtzee database"),
    (["history", "--database-url", "sqlite:///{tmp}"], "Cannot open the database"),
    (["stats", "--rules", "nope"], "rule"),
    (["stats", "--database-url", "nonsense"], "is not a database URL"),
    (["highscores", "--limit", "-3"], "--limit"),
    (["highscores", "--rules", HUGE], "rule"),
    (["export", "--format", "xml"], "invalid choice"),
    (["export", "--out", "{tmp}/no/such/folder/x.json"], "No such file or directory"),
    (["import", HUGE], ""),
    (["import", "{tmp}/missing.json"], "No file at"),
    (["import", "{tmp}/notes.json"], "not a yahtzee JSON export: it is not JSON at all"),
    (["import", "{tmp}/empty.json"], "not a yahtzee JSON export: the file is empty"),
    (["import", "{tmp}/list.json"], "not a yahtzee JSON export"),
    (["import", "{tmp}/cut.json"], "cut short"),
    (["import", "{tmp}/notes.txt"], "not a yahtzee CSV export"),
    (["import", "{tmp}/binary.csv"], "not UTF-8"),
    (["replay", HUGE], "is not a game id"),
    (["replay", "abcd"], "No game"),
    (["card", "abcd"], "--html"),
    (["card", "abcd", "--html", "{tmp}/card.html"], "No game"),
]


SUBPROCESS = [
    [HUGE],
    ["play", "--seed", "abc"],
    ["score", HUGE],
    ["advise", HUGE],
    ["simulate", "--players", "0"],
    ["history", "--database-url", "sqlite:///{tmp}/notes.txt"],
    ["import", "{tmp}/cut.json"],
    ["replay", HUGE],
]
"""Cases of the commands, as a user meets them: a fresh process each (the rest run
in this process, which is quicker and checks the same)."""


def _files(tmp: Path) -> None:
    (tmp / "notes.txt").write_text("Remember the milk.\n")
    (tmp / "notes.json").write_text("Remember the milk.\n")
    (tmp / "empty.json").write_text("")
    (tmp / "list.json").write_text("[]\n")
    export = {"format": "yahtzee-records", "version": 1, "games": [{"id": "abc", "rules": "o"}]}
    text = json.dumps(export, indent=1)
    (tmp / "cut.json").write_text(text[: len(text) // 2])
    (tmp / "binary.csv").write_bytes(b"\xff\xfe\x00game_id")
    with sqlite3.connect(tmp / "other.db") as other:
        other.execute("CREATE TABLE recipes (name TEXT)")


def _env(home: Path) -> dict[str, str]:
    """A user with nothing yet: every folder the program may use lies under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("YAHTZEE_", "XDG_"))}
    return {**env, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"), "YAHTZEE_CACHE_DIR": str(home / "cache"),
            "PYTHONIOENCODING": "utf-8"}  # fmt: skip


def _run(args: list[str], env: dict[str, str], **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*yahtzee_command(), *args],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, **extra},
        check=False,
    )


def _in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``yahtzee ARGS`` run by :func:`main` here: (status, stdout, stderr)."""
    try:
        status = main(args)
    except SystemExit as stop:  # argparse's usage mistakes
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def _check(status: int, out: str, err: str, words: str = "") -> None:
    assert status == 2, (out[:500], err[:500])
    lines = err.splitlines()
    assert len(lines) == 1, err[:2000]
    assert lines[0].startswith("yahtzee: error: ")
    assert len(lines[0]) <= LONGEST_LINE, lines[0][:LONGEST_LINE]
    assert "internal error" not in lines[0] and "Traceback" not in err
    assert words in lines[0]
    assert out == ""


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder with the test's files (``{tmp}``) for a user with nothing recorded yet."""
    home = tmp_path / "home"
    for key, value in _env(home).items():
        monkeypatch.setenv(key, value)
    for key in ("YAHTZEE_DATA_DIR", "YAHTZEE_DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    files = tmp_path / "files"
    files.mkdir()
    _files(files)
    yield files
    assert not home.exists(), "a command that failed made a file"


@pytest.mark.parametrize(("args", "words"), CASES, ids=[" ".join(a)[:40] for a, _ in CASES])
def test_bad_input_one_clear_line_exit_2(
    args: list[str], words: str, user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(*_in_process([a.replace("{tmp}", str(user)) for a in args], capsys), words)


def test_bad_input_as_a_user_meets_it(tmp_path: Path) -> None:
    """The same, each a fresh ``yahtzee`` process (several at a time: each is mostly a
    Python start)."""
    _files(tmp_path)
    home = tmp_path / "home"
    words = {tuple(args): w for args, w in CASES}
    commands = [[a.replace("{tmp}", str(tmp_path)) for a in args] for args in SUBPROCESS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(lambda args: _run(args, _env(home)), commands))
    for args, result in zip(SUBPROCESS, done, strict=True):
        _check(result.returncode, result.stdout, result.stderr, words[tuple(args)])
    assert not home.exists()


def test_postgresql_without_its_driver_or_its_server(tmp_path: Path) -> None:
    """Without psycopg the line says how to install it; with it but no server there, the
    line says the server cannot be reached."""
    fake = tmp_path / "no-driver" / "psycopg"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ModuleNotFoundError('psycopg', name='psycopg')\n")
    url = "postgresql://nobody:secret@127.0.0.1:1/x"
    env = _env(tmp_path)
    missing = _run(["history", "--database-url", url], env, PYTHONPATH=str(fake.parent))
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == (
        "yahtzee: error: PostgreSQL needs its driver: pip install '.[postgres]' in the project's "
        "folder.\n"
    )
    pytest.importorskip("psycopg")
    down = _run(["history", "--database-url", url], env)
    assert down.returncode == 2 and len(down.stderr.splitlines()) == 1, down.stderr
    assert down.stderr.startswith("yahtzee: error: Cannot reach the database ")
    assert "secret" not in down.stderr and "Is the server running" in down.stderr


READ_ONLY = [
    (["history"], "No games recorded yet."),
    (["history", "--json"], "[]"),
    (["stats"], "No finished games yet."),
    (["highscores"], "none yet"),
    (["export"], '"games": []'),
    (["export", "--format", "csv"], "game_id,"),
]
NOTHING_THERE = [
    ["replay", "abcd"],
    ["card", "abcd", "--html", "c.html"],
    ["play", "--resume", "abcd"],
]


def test_reading_commands_create_no_files_for_a_new_user(tmp_path: Path) -> None:
    """A fresh XDG data folder: reading the records finds none, and makes no database."""
    home = tmp_path / "home"
    commands = [["history"], ["stats"], ["export", "--format", "csv"]]
    with ThreadPoolExecutor(max_workers=3) as pool:
        done = list(pool.map(lambda args: _run(args, _env(home)), commands))
    assert [r.returncode for r in done] == [0, 0, 0], [r.stderr for r in done]
    assert "No games recorded yet." in done[0].stdout
    assert "No finished games yet." in done[1].stdout
    assert done[2].stdout.startswith("game_id,")
    assert not home.exists() and list(tmp_path.iterdir()) == [], list(tmp_path.rglob("*"))


@pytest.mark.parametrize("where", ["default", "a folder that is not there"])
def test_reading_commands_create_no_files(
    where: str, user: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = user / "no" / "such" / "folder"
    url = [] if where == "default" else ["--database-url", f"sqlite:///{folder / 'x.db'}"]
    for args, expected in READ_ONLY:
        status, out, err = _in_process([*args, *url], capsys)
        assert status == 0, err
        assert expected in out and err == ""
    for args in NOTHING_THERE:
        _check(*_in_process([*args, *url], capsys))
    assert not (user / "no").exists()


@pytest.mark.parametrize(
    "args, command",
    [(["export", "out.json"], "export"), (["tables", "build", "--frobnicate"], "tables build"),
     (["--frobnicate"], "play"), (["history", "--player", "Ann", "Bob"], "history")],
)  # fmt: skip
def test_an_unknown_argument_points_to_its_command(
    args: list[str], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: 'yahtzee export out.json' said "try 'yahtzee --help'", whose page does
    not say how export takes a file; now the line gives export's usage and its help."""
    status, out, err = _in_process(args, capsys)
    _check(status, out, err, "unrecognized arguments")
    assert f"usage: yahtzee {command} [-h]" in err and f"try 'yahtzee {command} --help'" in err
    assert "try 'yahtzee --help'" not in err


def test_a_usage_line_fits_one_line_for_the_longest_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _in_process(["serve", "--frobnicate", HUGE], capsys)
    _check(status, out, err, "try 'yahtzee serve --help'")
    assert "usage: yahtzee serve" in err


RECORDS = [["history"], ["history", "--json"], ["stats"], ["highscores"], ["export"],
           ["export", "--format", "csv"], ["import", "{tmp}/export.json"], ["replay", "abcd"],
           ["card", "abcd", "--html", "{tmp}/c.html"], ["verify", "abcd"],
           ["play", "--resume", "abcd"], ["play", "--plain", "Ann"], ["daily", "Ann"]]  # fmt: skip
"""Every command that reads or keeps the records."""


@pytest.mark.parametrize("where", ["a folder on the way is a file", "under /proc"])
def test_a_broken_records_location_is_one_line_naming_it(
    where: str, user: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: --database-url sqlite:////proc/nope/x.db, or XDG_DATA_HOME set to a
    file, said "No games recorded yet." (exit 0) to a player whose games could never be
    kept there. Now every records command says where and why, exit 2, and leaves no file."""
    (user / "export.json").write_text('{"format": "yahtzee-records", "version": 1, "games": []}')
    blocker = user / "a-file"
    blocker.write_text("not a folder\n")
    if where == "under /proc":
        url, cause = ["--database-url", "sqlite:////proc/nope/x.db"], "/proc/nope/x.db"
    else:
        monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
        url, cause = [], f"{blocker} is a file, not a folder"
    for args in RECORDS:
        command = [a.replace("{tmp}", str(user)) for a in args] + url
        status, out, err = _in_process(command, capsys)
        _check(status, out, err, "Cannot keep the records at ")
        assert cause in err, (args, err)
    assert blocker.read_text() == "not a folder\n" and not Path("/proc/nope").exists()
    assert not (user / "c.html").exists()


def test_a_broken_records_location_as_a_user_meets_it(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("")
    done = _run(["history"], {**_env(tmp_path / "home"), "XDG_DATA_HOME": str(blocker)})
    _check(done.returncode, done.stdout, done.stderr, f"{blocker} is a file, not a folder")
