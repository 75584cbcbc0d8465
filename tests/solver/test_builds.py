"""One build of the win tables per machine, never lost: real processes, small real builds
(see ``tests/table_builds.py``), every wait bounded, every process stopped on the way out."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.table_builds import (
    BUILD_TIMEOUT,
    LATE_MASK,
    builder_env,
    builders_started,
    kill_builder,
    request,
    stop_builders,
)
from tests.waiting import LineReader, ended, wait_until
from yahtzee import RuleSet
from yahtzee.solver import builds
from yahtzee.solver.builds import BuildState, Job, TableBuildError, builder_running, read_state
from yahtzee.solver.curve_table import CurveTable, build, load

OFFICIAL = RuleSet.official()


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "cache"
    try:
        yield folder
    finally:
        stop_builders(folder)


def _progress_lines(lines: list[str]) -> list[tuple[int, int]]:
    return [(int(w[1]), int(w[2])) for w in (line.split() for line in lines) if w[0] == "progress"]


def _live_mid_build(cache: Path) -> BuildState | None:
    state = read_state(cache)
    job = state.current if state is not None and state.live else None
    return state if job is not None and 1 <= job.done < job.total else None


def test_two_processes_asking_for_the_same_table_start_one_build(cache: Path) -> None:
    first, second = request(cache, delay=1.0), request(cache, delay=1.0)
    with ended(first, second):
        out_first, out_second = LineReader(first.stdout), LineReader(second.stdout)  # type: ignore[arg-type]
        lines = [out_first.rest(BUILD_TIMEOUT), out_second.rest(BUILD_TIMEOUT)]
        assert first.wait(timeout=30) == 0, first.stderr.read() if first.stderr else ""
        assert second.wait(timeout=30) == 0, second.stderr.read() if second.stderr else ""
    assert len(builders_started(cache)) == 1
    for told in lines:
        assert told[-1].startswith("loaded ")
        progress = _progress_lines(told)
        # each followed the one build's layers, the middle ones included
        assert any(0 < done < total for done, total in progress), told
    assert lines[0][-1] == lines[1][-1]  # the same table
    table = CurveTable.read("distribution", OFFICIAL, cache)
    expected = build("distribution", OFFICIAL, base_mask=LATE_MASK)
    assert np.array_equal(table.levels, expected.levels)
    assert np.array_equal(table.start, expected.start)


def test_a_builder_killed_mid_build_leaves_nothing_corrupt_and_the_next_request_starts_over(
    cache: Path,
) -> None:
    path = CurveTable.path_for("distribution", OFFICIAL, cache)
    cache.mkdir(parents=True)
    # what a writer killed while writing leaves: a temporary file beside the table
    leftover = cache / f"{path.name}k1ll3d.tmp"
    leftover.write_bytes(b"half a table")
    os.utime(leftover, (time.time() - 3600, time.time() - 3600))

    first = request(cache, delay=1.5)
    with ended(first):
        state = wait_until(lambda: _live_mid_build(cache), timeout=BUILD_TIMEOUT, what="mid-build")
        # detached (a session of its own), low priority, one thread
        assert os.getsid(state.pid) == state.pid != os.getsid(first.pid)
        assert os.getpriority(os.PRIO_PROCESS, state.pid) >= builds.NICE
        assert b"\0-I\0" in Path(f"/proc/{state.pid}/cmdline").read_bytes()  # isolated
        environ = Path(f"/proc/{state.pid}/environ").read_bytes().split(b"\0")
        assert f"NUMBA_NUM_THREADS={builds.THREADS}".encode() in environ
        first.kill()  # the program that asked goes, and its builder is killed
        kill_builder(state.pid)
        wait_until(lambda: not builder_running(cache), timeout=30, what="the lock is free")
    assert not path.exists()  # nothing under the table's name
    dead = read_state(cache)
    assert dead is not None and not dead.live and dead.ended is None  # a killed build

    second = request(cache, delay=1.0)
    with ended(second):
        # a new builder starts over; killed too, the request goes on with a third
        wait_until(lambda: len(builders_started(cache)) == 2, timeout=60, what="a new builder")
        again = wait_until(lambda: _live_mid_build(cache), timeout=BUILD_TIMEOUT, what="mid-build")
        assert again.pid != state.pid
        kill_builder(again.pid)
        lines = LineReader(second.stdout).rest(BUILD_TIMEOUT)  # type: ignore[arg-type]
        assert second.wait(timeout=30) == 0, second.stderr.read() if second.stderr else ""
    assert lines[-1].startswith("loaded ")
    assert len(builders_started(cache)) == 3
    table = CurveTable.read("distribution", OFFICIAL, cache)  # checked: SHA-256 and all
    assert np.array_equal(table.levels, build("distribution", OFFICIAL, base_mask=LATE_MASK).levels)
    assert not leftover.exists()  # the builder tidied the dead writer's file
    assert not list(cache.glob("*.tmp"))


def test_no_room_on_the_disk_is_one_line_and_no_build(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Usage:
        free = 5 * builds.MB

    monkeypatch.setattr(builds.shutil, "disk_usage", lambda _: Usage())
    job = Job("official", "distribution", CurveTable.path_for("distribution", OFFICIAL, cache))
    with pytest.raises(TableBuildError, match="Not enough disk space"):
        builds.obtain([job], cache)
    assert not builders_started(cache)
    assert read_state(cache) is None


def test_a_state_file_that_cannot_be_read_is_no_build(cache: Path) -> None:
    cache.mkdir(parents=True)
    (cache / builds.STATE_NAME).write_text("{not json", encoding="utf-8")
    assert read_state(cache) is None
    assert not builder_running(cache)


def test_a_builder_that_fails_says_why_and_is_not_started_again(cache: Path) -> None:
    path = CurveTable.path_for("distribution", OFFICIAL, cache)
    with pytest.raises(TableBuildError, match="Unknown rule set"):
        builds.obtain([Job("no-such-rules", "distribution", path)], cache)
    assert len(builders_started(cache)) == 1
    state = read_state(cache)
    assert state is not None and not state.live and "Unknown rule set" in (state.error or "")


def test_the_expected_time_follows_the_builder_s_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = [Job("official", k, Path(k)) for k in ("distribution", "target")]
    one = builds.EXPECTED_SECONDS["distribution"] + builds.EXPECTED_SECONDS["target"]
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert builds.expected_seconds(["distribution", "target"], 1) == one
    two = builds.expected_seconds(["distribution", "target"], 2)
    assert one / 2 < two < one
    assert builds.expected_seconds(["distribution", "target"], 8) == two  # only 2 cores here
    assert "one core" in builds.notice(jobs, 1) and "every core" in builds.notice(jobs, 2)
    state = BuildState(1, 0.0, [builds.JobState("official", "target", "t")], True, threads=2)
    assert state.expected_seconds == builds.expected_seconds(["target"], 2)


def test_health_reports_the_build_under_way(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/api/health`` says which table is being built, how far, by which process (here
    this one holds the lock, as a builder does, and its state says it builds)."""
    from fastapi.testclient import TestClient

    from yahtzee.web.app import create_app

    monkeypatch.setenv("YAHTZEE_CACHE_DIR", str(cache))
    app = create_app(f"sqlite:///{tmp_path / 'server.db'}", bot_delay=0, rate=1e6)
    with TestClient(app) as client:
        assert "table_build" not in client.get("/api/health").json()
        fd = builds._take_lock(cache)
        assert fd is not None
        try:
            job = builds.JobState("official", "target", str(cache / "t.bin"), done=5, total=14)
            builds.write_state(cache, BuildState(os.getpid(), time.time(), [job], detached=True))
            found = client.get("/api/health").json()["table_build"]
        finally:
            os.close(fd)
        assert found == {
            "rules": "official", "kind": "target", "done": 5, "total": 14, "pid": os.getpid(),
            "expected_bytes": builds.EXPECTED_BYTES["target"],
            "expected_seconds": builds.EXPECTED_SECONDS["target"],
        }  # fmt: skip
        assert "table_build" not in client.get("/api/health").json()  # the lock let go: none


METER = """
import sys, time
from yahtzee import RuleSet
from yahtzee.solver.curve_table import table_loaded
from yahtzee.solver.winning import request_tables, table_progress

rules, seen = RuleSet.official(), set()
request_tables(rules, ("distribution",))
deadline = time.monotonic() + float(sys.argv[1])
while not table_loaded("distribution", rules):
    now = table_progress(rules, "distribution")
    if now and now not in seen:
        seen.add(now)
        print("progress", *now, flush=True)
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.05)
print("loaded", flush=True)
"""


def test_the_meter_request_follows_the_build_then_loads_the_table(cache: Path) -> None:
    """What a game's win meter does (a background thread asks, the screen polls)."""
    meter = subprocess.Popen(
        [sys.executable, "-c", METER, str(BUILD_TIMEOUT)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, delay=1.0),
    )
    with ended(meter):
        lines = LineReader(meter.stdout).rest(BUILD_TIMEOUT + 30)  # type: ignore[arg-type]
        assert meter.wait(timeout=30) == 0, meter.stderr.read() if meter.stderr else ""
    assert lines[-1] == "loaded\n"
    assert any(0 < done < total for done, total in _progress_lines(lines)), lines
    assert len(builders_started(cache)) == 1


def test_a_damaged_table_is_rebuilt_here_when_builds_aside_are_off(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite turns builds aside off (``YAHTZEE_NO_TABLE_BUILDS``): ``load`` builds in
    its own process, still under the lock and with the state file, and a table that fails
    its check is replaced."""
    monkeypatch.setenv(builds.BASE_MASK_ENV, str(LATE_MASK))
    path = CurveTable.path_for("target", OFFICIAL, cache)
    cache.mkdir(parents=True)
    path.write_bytes(b'{"format": "yahtzee-score-curves"}\njunk')
    table = load("target", OFFICIAL, directory=cache)
    assert np.array_equal(table.levels, build("target", OFFICIAL, base_mask=LATE_MASK).levels)
    CurveTable.read("target", OFFICIAL, cache)  # replaced by a whole one
    state = read_state(cache)
    assert state is not None and state.pid == os.getpid() and not state.detached
    assert state.error is None and state.ended is not None and not state.live
    assert not builders_started(cache)


def test_a_build_goes_on_after_the_game_that_asked_quits_and_the_next_one_joins_it(
    cache: Path,
) -> None:
    """Quit mid-build, relaunch at once: the build's progress is not lost, one builder."""
    game = subprocess.Popen(
        [sys.executable, "-c", METER, str(BUILD_TIMEOUT)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, delay=1.0),
    )
    with ended(game):
        state = wait_until(lambda: _live_mid_build(cache), timeout=BUILD_TIMEOUT, what="mid-build")
        game.terminate()  # the player quits
        game.wait(timeout=30)
    assert builder_running(cache)  # the build goes on
    relaunched = subprocess.Popen(
        [sys.executable, "-c", METER, str(BUILD_TIMEOUT)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=builder_env(cache, delay=1.0),
    )
    with ended(relaunched):
        lines = LineReader(relaunched.stdout).rest(BUILD_TIMEOUT + 30)  # type: ignore[arg-type]
        assert relaunched.wait(timeout=30) == 0
    assert lines[-1] == "loaded\n"
    assert builders_started(cache) == [state.pid]
    heard = [p for p in _progress_lines(lines) if p != (0, 1)]  # (0, 1): asked, nothing heard
    assert heard[0][0] >= 1, lines  # it picked the build up where it was, not from 0


def test_a_full_disk_mid_build_is_told_in_one_line() -> None:
    """What a builder that hit a full disk while saving reports (the follower raises it)."""
    full = OSError(errno.ENOSPC, "No space left on device", "/cache/curves.bin.tmp")
    assert builds.describe(full) == "The disk is full: cannot write /cache/curves.bin.tmp."
