"""The benchmarks are a product: ``python -m benchmarks`` lists every script a user runs,
each answers ``--help``, and none leans on the tests' helpers or on a private name."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.catalog import BENCHMARKS

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "benchmarks"


def benchmarks_command(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *words],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def imports_in(source: str) -> Iterator[tuple[str, int]]:
    """(module or name imported, line) of every import in ``source``, and of those in the
    code its string constants hold (the scripts run some code in fresh interpreters)."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, node.lineno
            yield from ((f"{node.module}.{alias.name}", node.lineno) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield from imports_in(node.value)  # (prose is no Python: nothing found)


def offences(name: str) -> list[str]:
    """What is wrong with importing ``name``: the tests' helpers, or a private name (a part
    of its dotted path that starts with one underscore)."""
    parts = name.split(".")
    found = []
    if parts[0] == "tests":
        found.append("a test helper")
    if any(p.startswith("_") and not p.startswith("__") for p in parts):
        found.append("a private name")
    return found


def test_the_listing_names_each_benchmark_its_script_and_its_page() -> None:
    result = benchmarks_command()
    assert result.returncode == 0, result.stderr
    for benchmark in BENCHMARKS:
        assert benchmark.script.is_file(), benchmark
        assert (ROOT / "docs" / "benchmarks" / benchmark.page).is_file(), benchmark
        assert f"python -m benchmarks run {benchmark.name}" in result.stdout
        assert f"docs/benchmarks/{benchmark.page}" in result.stdout


@pytest.mark.parametrize("name", [b.name for b in BENCHMARKS])
def test_each_benchmark_runs_and_answers_help(name: str) -> None:
    result = benchmarks_command("run", name, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: {name}.py"), result.stdout


def test_every_script_with_a_main_is_listed() -> None:
    """A script a user runs is listed (a lab script does not hide among the helpers)."""
    listed = {b.script for b in BENCHMARKS}
    for path in sorted(FOLDER.glob("*.py")):
        if path.name != "__main__.py" and 'if __name__ == "__main__"' in path.read_text():
            assert path in listed, f"{path.name} runs as a script: list it in catalog.py"


def test_no_benchmark_imports_a_test_helper_or_a_private_name() -> None:
    found = [
        f"{path.name}:{line}: {name} ({', '.join(offences(name))})"
        for path in sorted(FOLDER.glob("*.py"))
        for name, line in imports_in(path.read_text())
        if offences(name)
    ]
    assert not found, "\n".join(found)


def test_the_import_check_sees_a_test_helper_and_a_private_name_in_code_strings() -> None:
    source = 'from tests.services import LocalRedis\nCODE = """\nfrom yahtzee.x import _y\n"""'
    found = {name: offences(name) for name, _ in imports_in(source) if offences(name)}
    assert found == {
        "tests.services": ["a test helper"],
        "tests.services.LocalRedis": ["a test helper"],
        "yahtzee.x._y": ["a private name"],
    }
