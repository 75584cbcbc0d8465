"""Nothing a player did is lost: SIGKILL at random points, and eight writers at once."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from tests.waiting import LineReader, end, ended
from yahtzee import Game
from yahtzee.store import Store, history

ROOT = Path(__file__).resolve().parents[2]


def worker(url: str, games: int, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.worker", url, str(games), str(seed)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def check_records(store: Store, committed: dict[str, int]) -> None:
    """Every committed event is there, and every stored log replays as a legal game."""
    for game_id, count in committed.items():
        stored = store.count_events(game_id)
        assert stored >= count, (game_id, stored, count)
    for summary in history(store):
        log = store.event_log(summary.id)
        assert len(log) == summary.event_count
        Game.replay(log)


def test_sigkill_at_random_points_loses_no_committed_event(db_url: str) -> None:
    rng = random.Random(50)
    committed: dict[str, int] = {}

    def took(line: str) -> None:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "saved":
            committed[parts[1]] = int(parts[2])

    forks = subprocess.Popen(
        [sys.executable, "-m", "tests.store.worker", "--forks"], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,  # (its errors: the test's)
        start_new_session=True,  # its writers are in its group: all killed on the way out
    )  # fmt: skip
    try:
        assert forks.stdin is not None and forks.stdout is not None
        lines = LineReader(forks.stdout)
        for kill in range(50):
            forks.stdin.write(f"{db_url} 0 {kill}\n")
            forks.stdin.flush()
            pid, saved, wanted = None, 0, rng.randint(1, 60)
            while pid is None or saved < wanted:
                line = lines.next_line(timeout=60)
                if not line or line.startswith("ended"):
                    raise AssertionError("the writer ended early (its error is above)")
                if line.startswith("pid "):
                    pid = int(line.split()[1])
                else:
                    took(line)
                    saved += 1
            time.sleep(rng.random() * 0.02)  # land the kill anywhere, mid-transaction included
            os.kill(pid, signal.SIGKILL)
            while not (line := lines.next_line(timeout=60)).startswith("ended"):
                assert line, "the forks ended"
                took(line)  # lines written before the kill still count as committed
            with Store(db_url) as store:  # opens cleanly after every kill
                if db_url.startswith("sqlite"):
                    with store.engine.connect() as c:
                        assert c.execute(text("PRAGMA integrity_check")).scalar() == "ok"
                check_records(store, committed)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(forks.pid, signal.SIGKILL)
        end(forks)
    assert len(committed) >= 10


def test_eight_processes_fifty_games_each(db_url: str) -> None:
    Store(db_url).close()  # the schema exists before the race (migrations race elsewhere)
    procs = [worker(db_url, 50, seed) for seed in range(8)]
    reported: dict[str, int] = {}
    with ended(*procs):  # none is left running when one fails or times out
        for proc in procs:
            out, err = proc.communicate(timeout=900)
            assert proc.returncode == 0, err[-2000:]
            assert "locked" not in err and "Traceback" not in err
            lines = out.splitlines()
            assert lines[-1] == "done"
            for line in lines[:-1]:
                _, game_id, count = line.split()
                reported[game_id] = int(count)
    with Store(db_url) as store:
        games = history(store)
        assert len(games) == len(reported) == 8 * 50
        assert all(g.status == "finished" for g in games)
        for game in games:  # none lost, none duplicated
            assert store.count_events(game.id) == game.event_count == reported[game.id]
        assert store.count_events() == sum(reported.values())
        check_records(store, reported)
