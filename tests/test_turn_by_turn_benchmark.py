"""The turn-by-turn benchmark runs end to end at a tiny size on PostgreSQL: it generates
and bulk-loads its records, measures "my games" and moves at idle tables (each refused
move or table not let go stops it), prints both lines and drops its database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks.parts import local_postgres

ROOT = Path(__file__).resolve().parent.parent


def test_the_benchmark_runs_small_and_prints_both_figures() -> None:
    if not os.environ.get("YAHTZEE_TEST_POSTGRES_URL") and local_postgres() is None:
        pytest.skip("No PostgreSQL server: set YAHTZEE_TEST_POSTGRES_URL.")
    done = subprocess.run(
        [sys.executable, "benchmarks/turn_by_turn.py", "--games", "60", "--accounts", "6",
         "--samples", "8", "--explain"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "60 open games, 6 accounts (20 games each)" in out
    assert "my games of one account: 20 listed, more: False" in out
    assert '"my games" (GET /api/me/games)' in out and "(8 samples;" in out and "CPU p50" in out
    assert "a move at an idle table" in out
    assert "Index Scan" in out or "Bitmap Index Scan" in out or "Seq Scan" in out  # the plan
