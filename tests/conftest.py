from __future__ import annotations

import os
import signal
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.server_process import ServerProcess

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The processes the tests start take Ctrl-C as from a terminal, also when the suite itself
# was started in the background (a shell without job control starts a command put in the
# background with `&` ignoring SIGINT, and an ignored signal stays ignored in every child:
# the tests of Ctrl-C then saw it ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Bytecode is written (to __pycache__, which git ignores) also where the environment asks
# for none (PYTHONDONTWRITEBYTECODE, set in some containers, these machines' among them):
# the suite starts hundreds of Python processes (commands, servers, writers) and each would
# compile the package's sources again (0.15-0.3 s of CPU a process); each pytest worker
# would rewrite every test module again too. The CLI tests took 17 % less CPU with it.
if sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"):
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The commands the tests start speak English unless a test asks for another language (a
# machine's LANG=de_DE would otherwise change every line the tests read).
os.environ["LANGUAGE"] = "en"

# Nothing a test runs (subprocesses included) touches the user's records or caches.
_ISOLATED = tempfile.mkdtemp(prefix="yahtzee-tests-")
os.environ["YAHTZEE_DATA_DIR"] = os.path.join(_ISOLATED, "data")
os.environ.setdefault("YAHTZEE_CACHE_DIR", os.path.join(_ISOLATED, "cache"))
os.environ.pop("YAHTZEE_DATABASE_URL", None)
os.environ["YAHTZEE_NO_TABLE_BUILDS"] = "1"  # the win meter never builds its table aside in tests

CI_SLOWEST = 30
"""Tests whose times CI prints (its log is where a slow suite's time is found)."""


def pytest_configure(config: pytest.Config) -> None:
    """Under CI, the slowest tests are listed at the end of the run (`--durations`)."""
    if os.environ.get("CI") and not config.option.durations:
        config.option.durations = CI_SLOWEST


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real ``yahtzee serve`` process on a free port with its own SQLite file."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'server.db'}")
    try:  # stopped whatever happens: a failed start, a failing test
        process.start()
        yield process
    finally:
        process.stop()
