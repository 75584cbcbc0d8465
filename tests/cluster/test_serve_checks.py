"""``yahtzee serve --redis-url`` with a part out of reach: one line and exit 2 before the
server starts (inside uvicorn's start it would be a traceback), nothing served."""

from __future__ import annotations

import subprocess
import sys

from tests.server_process import ROOT, free_port
from tests.store.conftest import new_database

TIMEOUT_S = 60


def serve(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "yahtzee", "serve", "--port", str(free_port()), *options],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S,
    )  # fmt: skip


def test_redis_out_of_reach_is_one_line(postgres_admin_url: str) -> None:
    database = new_database(postgres_admin_url)
    url = f"redis://:secret@127.0.0.1:{free_port()}/0"  # nothing listens there
    done = serve("--database-url", database, "--redis-url", url, "--lease-ttl", "1")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Cannot reach Redis at redis://127.0.0.1:" in done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr


def test_postgresql_out_of_reach_is_one_line(redis_server: str) -> None:
    database = f"postgresql://postgres@127.0.0.1:{free_port()}/nothing"
    done = serve("--database-url", database, "--redis-url", redis_server)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "Cannot reach the database" in done.stderr and "Traceback" not in done.stderr


def test_a_node_on_every_address_must_say_where_the_others_reach_it() -> None:
    database = "postgresql://postgres@127.0.0.1:1/nothing"  # (refused before it is tried)
    redis = "redis://127.0.0.1:1/0"
    cases = {
        ("--host", "0.0.0.0"): "needs --node-address HOST:PORT",
        ("--node-address", "no-port"): "--node-address takes HOST:PORT",
        ("--node-address", "10.0.0.5:99999"): "--node-address takes HOST:PORT",
    }
    for options, said in cases.items():
        done = serve("--database-url", database, "--redis-url", redis, *options)
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
    done = serve("--node-address", "10.0.0.5:8000")  # without --redis-url: refused too
    assert done.returncode == 2 and "--node-address needs --redis-url" in done.stderr
