"""The README's Quick start has exactly two commands, and CI runs the test one unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.examples import run_examples

ROOT = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_quick_start_has_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    play, test = commands
    assert play.endswith("yahtzee")
    assert "pytest" in test


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert quick_start_commands()[1] in ci


def test_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YAHTZEE_CACHE_DIR", str(tmp_path))
    # the solver from Python and RL, each printing what its comments say
    assert run_examples((ROOT / "README.md").read_text(), "README.md") == 2


def test_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150
