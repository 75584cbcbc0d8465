"""A fresh install: the server answers at once and gets its solver ready meanwhile."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.server_process import ServerProcess


def test_a_cold_server_answers_before_its_solver_is_ready(tmp_path: Path) -> None:
    """Empty caches (no compiled kernels, no solver table): ``/api/health`` answers while
    the solver is still warming, and a table plays meanwhile; then the solver is ready.
    (The time to first answer is measured by benchmarks/startup.py, not here.)"""
    caches = {
        name: str(tmp_path / name)
        for name in ("NUMBA_CACHE_DIR", "YAHTZEE_CACHE_DIR", "XDG_CACHE_HOME", "XDG_DATA_HOME")
    }
    server = ServerProcess(f"sqlite:///{tmp_path / 'cold.db'}", env=caches)
    try:
        server.start()
        with httpx.Client(base_url=server.base, timeout=30) as http:
            assert http.get("/api/health").json() == {"status": "ok", "solver": "warming"}
            made = http.post("/api/tables", json={"host": "Ann"})
            assert made.status_code == 201, made.text
            table, token = made.json()["table"]["id"], made.json()["token"]
            started = http.post(
                f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {token}"}
            )
            assert started.status_code == 200, started.text
            deadline = time.monotonic() + 600
            while http.get("/api/health").json()["solver"] != "ready":
                assert time.monotonic() < deadline, "the solver never got ready"
                time.sleep(0.2)  # no event to await from outside the server
            assert list(Path(caches["NUMBA_CACHE_DIR"]).iterdir()), "nothing compiled"
    finally:
        server.stop()
