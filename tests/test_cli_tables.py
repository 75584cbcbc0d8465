"""``yahtzee tables status/build/clear`` as a user runs them: subprocesses, small real
builds (``tests/table_builds.py``), every wait bounded, every builder stopped on the way out."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import yahtzee_command
from tests.table_builds import BUILD_TIMEOUT, builder_env, builders_started, stop_builders
from tests.waiting import ended, wait_until
from yahtzee import RuleSet
from yahtzee.cli import main
from yahtzee.solver import builds
from yahtzee.solver.builds import read_state
from yahtzee.solver.curve_table import CurveTable

OFFICIAL = RuleSet.official()


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "cache"
    try:
        yield folder
    finally:
        stop_builders(folder)


def tables(
    cache: Path, *args: str, delay: float = 0.0, timeout: float = BUILD_TIMEOUT
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*yahtzee_command(), "tables", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**builder_env(cache, delay), "COLUMNS": "100"},
        check=False,
    )


def status(cache: Path) -> dict[str, Any]:
    done = tables(cache, "status", "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def official(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["kind"]: t for t in report["tables"] if t["rules"] == "official"}


def one_line_error(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("yahtzee: error: "), done.stderr
    assert words in done.stderr
    assert "Traceback" not in done.stderr


def test_status_of_an_empty_cache(cache: Path) -> None:
    done = tables(cache, "status", timeout=60)
    assert done.returncode == 0, done.stderr
    assert str(cache) in done.stdout
    assert done.stdout.count("not built") == 2 * len(
        {RuleSet.named(n).scoring_key for n in RuleSet.names()}
    )
    report = status(cache)
    assert report["cache"] == str(cache)
    assert report["build"] is None
    assert all(not t["present"] and t["bytes"] is None for t in report["tables"])
    assert tables(cache, timeout=60).stdout == done.stdout  # "tables" alone is the status


def test_build_status_and_clear(cache: Path) -> None:
    done = tables(cache, "build")
    assert done.returncode == 0, done.stderr
    assert "The official tables are ready" in done.stdout
    assert "MB on disk" in done.stderr  # said once, before the build: its size and its time
    assert "of 4 layers" in done.stderr
    assert len(builders_started(cache)) == 1
    built = read_state(cache)
    # a player waits for this one: its builder gets every core (a game's gets one)
    assert built is not None and built.threads == (os.cpu_count() or 1)
    if built.threads > 1:
        assert "every core" in done.stderr
    for kind in ("distribution", "target"):
        CurveTable.read(kind, OFFICIAL, cache)  # whole and checked

    report = official(status(cache))
    assert all(t["present"] and t["bytes"] > 0 and t["building"] is None for t in report.values())
    again = tables(cache, "build")
    assert again.returncode == 0 and "are there" in again.stdout
    assert len(builders_started(cache)) == 1  # nothing built twice
    assert "ready" in tables(cache, "status", timeout=60).stdout

    cleared = tables(cache, "clear", "--rules", "official", timeout=60)
    assert cleared.returncode == 0, cleared.stderr
    assert "Removed 2 tables" in cleared.stdout
    assert not any(t["present"] for t in official(status(cache)).values())
    assert tables(cache, "clear", timeout=60).stdout == "No tables to clear.\n"


def test_a_second_build_joins_the_one_under_way(cache: Path, tmp_path: Path) -> None:
    release = tmp_path / "release"  # the builder waits after its first layer until then
    first = subprocess.Popen(
        [*yahtzee_command(), "tables", "build"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, hold=release),
    )
    with ended(first):
        wait_until(lambda: builders_started(cache), timeout=60, what="a builder")
        report = wait_until(
            lambda: (r := official(status(cache)))["distribution"]["building"] and r,
            timeout=BUILD_TIMEOUT,
            what="the status shows the build",
        )
        pid = report["distribution"]["building"]["pid"]
        assert pid == builders_started(cache)[0]
        assert f"process {pid}" in tables(cache, "status", timeout=60).stdout

        busy = tables(cache, "clear", timeout=60)  # refused while being built
        one_line_error(busy, "being built")

        second = subprocess.Popen(
            [*yahtzee_command(), "tables", "build"],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            env={**builder_env(cache), "COLUMNS": "100"},
        )
        with ended(second):
            assert second.stderr is not None
            joined = second.stderr.readline()  # (its first line; the build is held)
            assert f"Joining the build under way (process {pid})" in joined, joined
            release.touch()
            _, rest = second.communicate(timeout=BUILD_TIMEOUT)
            assert second.returncode == 0, joined + rest
            assert "layers" in rest  # it followed the build's progress
        assert first.wait(timeout=BUILD_TIMEOUT) == 0
    assert len(builders_started(cache)) == 1


def test_ctrl_c_stops_watching_not_the_build(cache: Path) -> None:
    watcher = subprocess.Popen(
        [*yahtzee_command(), "tables", "build"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, delay=1.0),
    )
    with ended(watcher):
        wait_until(lambda: builders_started(cache), timeout=60, what="a builder")
        watcher.send_signal(signal.SIGINT)
        _, err = watcher.communicate(timeout=30)
        assert watcher.returncode == 130
        assert "the build goes on in the background" in err
    path = CurveTable.path_for("target", OFFICIAL, cache)
    wait_until(path.exists, timeout=BUILD_TIMEOUT, what="the build went on")
    CurveTable.read("target", OFFICIAL, cache)


def test_an_unknown_rule_set_is_one_line_and_touches_nothing(cache: Path) -> None:
    assert tables(cache, "build").returncode == 0
    before = {p.name: p.stat().st_mtime_ns for p in cache.glob("curves-*")}
    for action in ("build", "clear"):
        one_line_error(tables(cache, action, "--rules", "nope", timeout=60), "Unknown rule set")
    assert {p.name: p.stat().st_mtime_ns for p in cache.glob("curves-*")} == before
    assert len(builders_started(cache)) == 1


def test_a_cache_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = tables(blocker / "cache", "build", timeout=60)
    one_line_error(done, "Cannot write to the table cache")
    assert blocker.read_text() == "not a folder"


def test_a_full_disk_is_one_line_and_starts_nothing(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Usage:
        free = 3 * builds.MB

    monkeypatch.setenv("YAHTZEE_CACHE_DIR", str(cache))
    monkeypatch.setattr(builds.shutil, "disk_usage", lambda _: Usage())
    assert main(["tables", "build", "--rules", "no-joker"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yahtzee: error: Not enough disk space") and err.count("\n") == 1
    assert read_state(cache) is None and not builders_started(cache)
