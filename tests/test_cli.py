"""The command line, driven as a subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from subprocess import CompletedProcess

import numpy as np
import pytest

from tests.cli_helpers import run_cli, yahtzee_command
from tests.core.test_bad_input import BAD_BOXES, BAD_CARDS, BAD_DICE, BAD_RULES
from yahtzee.cli import main
from yahtzee.solver import ScoreDistribution, Solver


def assert_one_line_error(result: CompletedProcess[str]) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("yahtzee: error: ")
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_score_prints_every_box() -> None:
    result = run_cli("score", "1", "3", "3", "5", "6")
    assert result.returncode == 0, result.stderr
    assert "Threes" in result.stdout and "Chance            18" in result.stdout
    assert len(result.stdout.splitlines()) == 14


def test_score_json_with_card_and_joker(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"boxes": {"yahtzee": 50, "fours": 12}}))
    result = run_cli("score", "44444", "--card", str(card), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    options = {p["category"]: (p["points"], p["yahtzee_bonus"]) for p in data["placements"]}
    assert options["full_house"] == (25, 100)
    assert options["large_straight"] == (40, 100)
    assert "ones" not in options and "fours" not in options
    assert all(p["joker"] for p in data["placements"])


def test_score_rules_option_and_box() -> None:
    result = run_cli("score", "44444", "--card", "-", "--rules", "free-choice-joker", "--json",
                     stdin='{"boxes": {"yahtzee": 0}}')  # fmt: skip
    options = {p["category"] for p in json.loads(result.stdout)["placements"]}
    assert "ones" in options and len(options) == 12
    result = run_cli("score", "22333", "--box", "fh")
    assert result.returncode == 0 and "Full House" in result.stdout and "25" in result.stdout


def test_rules_in_words() -> None:
    result = run_cli("rules")
    assert result.returncode == 0
    assert "official" in result.stdout and "63" in result.stdout and "Joker" in result.stdout
    result = run_cli("rules", "no-joker")
    assert result.returncode == 0 and "No Joker rule" in result.stdout


@pytest.mark.parametrize("text", [t for t in BAD_DICE if not t.startswith("-")])
def test_bad_dice_one_line_exit_2(text: str) -> None:
    assert_one_line_error(run_cli("score", text))


@pytest.mark.parametrize("text", BAD_BOXES)
def test_bad_box_one_line_exit_2(text: str) -> None:
    assert_one_line_error(run_cli("score", "12345", "--box", text))


@pytest.mark.parametrize("text", BAD_CARDS)
def test_bad_card_one_line_exit_2(text: str, tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    card.write_text(text)
    assert_one_line_error(run_cli("score", "12345", "--card", str(card)))


@pytest.mark.parametrize("text", BAD_RULES)
def test_bad_rules_one_line_exit_2(text: str) -> None:
    assert_one_line_error(run_cli("rules", text))
    assert_one_line_error(run_cli("score", "12345", "--rules", text))


@pytest.mark.parametrize(
    "args",
    [
        ["score"],
        ["score", "12345", "--card", "/no/such/file.json"],
        ["frobnicate"],
        ["score", "12345", "--bogus"],
        ["score", "-1", "2", "3", "4", "5"],
        ["play", "--seed"],
    ],
)
def test_usage_errors_one_line_exit_2(args: list[str]) -> None:
    assert_one_line_error(run_cli(*args))


def test_a_complete_card_filled_box() -> None:
    assert_one_line_error(
        run_cli(
            "score", "12345", "--box", "chance", "--card", "-", stdin='{"boxes": {"chance": 20}}'
        )
    )


def test_version_and_help() -> None:
    assert run_cli("--version").stdout.startswith("yahtzee ")
    result = run_cli("--help")
    assert result.returncode == 0 and "score" in result.stdout and "rules" in result.stdout


def test_hostile_card_files_one_line(tmp_path: Path) -> None:
    for name, data in [("deep", b"[" * 100_000), ("digits", b"1" * 5000), ("bytes", b"\xff")]:
        card = tmp_path / f"{name}.json"
        card.write_bytes(data)
        assert_one_line_error(run_cli("score", "12345", "--card", str(card)))


def test_odd_bytes_on_stdin_are_a_clear_mistake() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    for args, data in [(["play"], b"k \xff\nquit\n"), (["score", "12345", "--card", "-"], b"\xff")]:
        result = subprocess.run(
            [*yahtzee_command(), *args],
            input=data,
            capture_output=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert b"Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) <= 1


def test_solve_advise_and_simulate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env_cache = {"YAHTZEE_CACHE_DIR": str(tmp_path)}
    old = {k: os.environ.get(k) for k in env_cache}
    os.environ.update(env_cache)
    try:
        # solve in this process: the exact distribution of the empty card, which it also
        # prints, takes minutes in a fresh cache (tests/test_cli_target.py checks it)
        pmf = np.zeros(301)
        pmf[[200, 300]] = 0.5
        monkeypatch.setattr(Solver, "distribution", lambda *_, **__: ScoreDistribution(pmf))
        assert main(["solve", "--rules", "free-choice-joker"]) == 0
        out = capsys.readouterr().out
        assert "expected final score 254.5896" in out
        assert "standard deviation 50.00" in out
        assert list(tmp_path.glob("*.bin"))
        result = run_cli("advise", "13356", "2", "--json")
        data = json.loads(result.stdout)
        assert data["situation"] == "13356 2"
        assert data["options"][0]["action"] == "keep 3 3"
        assert data["options"][0]["regret"] == 0
        assert abs(data["options"][0]["value"] - 251.4054) < 1e-4
        result = run_cli("advise", "44444 0 yz=50 4s=12 ls=40", "--top", "2")
        assert result.returncode == 0
        assert "score Full House" in result.stdout.splitlines()[1]
        result = run_cli("simulate", "--strategy", "greedy", "-n", "300", "--seed", "4", "--json")
        seat = json.loads(result.stdout)["seats"][0]
        assert seat["games"] == 300 and 180 < seat["mean"] < 260
        assert {"std", "percentiles", "upper_bonus_rate", "yahtzee_rate"} <= set(seat)
        result = run_cli("simulate", "--strategy", "optimal,random", "-n", "200")
        lines = result.stdout.splitlines()
        assert "wins" in result.stdout and sum(line.startswith("seat ") for line in lines) == 2
        # each seat's distribution, told apart by a legend (it showed seat 1's alone)
        assert "Games per 20 points of final score: # seat 1 optimal, = seat 2 random" in lines
        assert any(line.lstrip().startswith("=") for line in lines)
        plot = tmp_path / "scores.png"
        result = run_cli("simulate", "--strategy", "heuristic", "-n", "200", "--plot", str(plot))
        assert result.returncode == 0
        assert plot.exists() or "matplotlib is not installed" in result.stdout
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.mark.parametrize(
    "args",
    [
        ["advise", "1335", "2"],
        ["advise", "13356", "3"],
        ["advise", "13356", "2", "fh=24"],
        ["advise", "13356", "2", "zz=3"],
        ["advise", "13356"],
        ["advise", "13356", "2", "--target", "900"],
        ["simulate", "--strategy", "clever", "-n", "5"],
        ["simulate", "-n", "0"],
        ["simulate", "--players", "9"],
        ["solve", "--rules", "nope"],
    ],
)
def test_solver_commands_bad_input_one_line(args: list[str]) -> None:
    assert_one_line_error(run_cli(*args))


def test_solve_says_it_compiles_before_the_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: on a fresh install the bar sat at 0% with no word while numba compiled."""
    from yahtzee.cli import progress
    from yahtzee.solver import compiling

    steps: list[str] = []

    @contextlib.contextmanager
    def working(label: str, *, always: bool = False) -> Iterator[None]:
        steps.append(label)
        yield

    monkeypatch.setattr(compiling, "cached", lambda kind: False)
    monkeypatch.setattr(compiling, "compile_aside", lambda kind: steps.append(f"compiled {kind}"))
    monkeypatch.setattr(progress, "working", working)
    progress.compile_first("build", "the solver's kernels")
    assert steps == [
        "Compiling the solver's kernels (first run only, about 20 s)",
        "compiled build",
    ]
    monkeypatch.setattr(compiling, "cached", lambda kind: True)
    progress.compile_first("curves", "the distribution's kernels")
    assert len(steps) == 2  # compiled already: nothing said
