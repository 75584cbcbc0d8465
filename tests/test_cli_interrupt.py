"""Ctrl-C stops a long command at once and says what it kept (issue 50, item 4): the
command runs as a player runs it, its progress on a terminal (a pseudo-terminal here), and
gets one SIGINT, as a terminal's Ctrl-C sends it."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.cli_helpers import yahtzee_command
from tests.server_process import START_TIMEOUT, free_port
from tests.table_builds import builder_env, stop_builders
from tests.waiting import wait_until
from yahtzee.cli import main
from yahtzee.solver.builds import builder_running, read_state

STARTED_TIMEOUT = 300.0
"""A first run in a fresh clone compiles the simulator first (a minute on a busy machine)."""
STOPPED_WITHIN_S = 3.0
"""How soon after one Ctrl-C the command has exited. It checks between calls of the
compiled loop of about 0.2 s each (`solver.simulate.CHUNK_S`), so on a quiet machine it
exits within half a second; the bound is generous for a loaded 2-core runner, and still
far below what the bug took (the rest of the 10,000,000 games: about 5 minutes here)."""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """A command whose stderr is a pseudo-terminal (so it draws its progress), read here."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.master, slave = pty.openpty()
        # a shell may start the test runner with SIGINT ignored (a background job), and a
        # child inherits that: Python then never turns SIGINT into KeyboardInterrupt. A
        # handler here is reset to the default in the child.
        before = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            self.proc = subprocess.Popen(
                [*yahtzee_command(), *args],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                env={**(env or os.environ), "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"},
            )  # fmt: skip
        finally:
            signal.signal(signal.SIGINT, before)
        os.close(slave)
        self.seen = ""

    def read(self, timeout: float) -> bool:
        """What the command wrote within ``timeout`` seconds; False when nothing came."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # the command has exited: its terminal is gone
            return False
        self.seen += ANSI.sub("", chunk.decode(errors="replace")).replace("\r", "\n")
        return bool(chunk)

    def drain(self) -> None:
        """Everything the command wrote before it exited."""
        while self.read(0.2):
            pass

    def await_text(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            assert self.proc.poll() is None, f"exited ({self.proc.returncode}): {self.seen}"
            assert time.monotonic() < deadline, f"no {text!r} within {timeout:g} s: {self.seen}"
            self.read(min(1.0, deadline - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=30)
        os.close(self.master)


@contextmanager
def terminal(*args: str, env: dict[str, str] | None = None) -> Iterator[Terminal]:
    running = Terminal(list(args), env)
    try:
        yield running
    finally:
        running.close()


def test_one_ctrl_c_stops_a_long_simulation_and_keeps_the_games_played() -> None:
    """Regression: 'yahtzee simulate -n 10000000' went on after two Ctrl-C (55 s; a kill
    was needed). One Ctrl-C now stops it within a second, exit 130, with the statistics
    of the games played so far, and says so."""
    with terminal("simulate", "-n", "10000000") as run:
        run.await_text("Simulating 10,000,000 games", STARTED_TIMEOUT)
        sent = time.monotonic()
        run.proc.send_signal(signal.SIGINT)
        stdout, _ = run.proc.communicate(timeout=60)
        took = time.monotonic() - sent
        run.drain()
    assert run.proc.returncode == 130, (run.proc.returncode, run.seen)
    assert took < STOPPED_WITHIN_S, took
    said = re.search(r"Stopped \(Ctrl-C\) after ([\d,]+) of 10,000,000 games", run.seen)
    assert said is not None, run.seen
    kept = int(said.group(1).replace(",", ""))
    assert 0 < kept < 10_000_000
    assert stdout.decode().startswith(f"{kept} games, official rules, seed 0, "), (
        stdout.decode(),
        run.seen,
    )
    assert "Games per" not in stdout.decode() and " 240-259 " in stdout.decode()


def test_one_ctrl_c_stops_advise_waiting_for_its_table_and_the_build_goes_on(
    tmp_path: Path,
) -> None:
    """'advise --target' follows the background build of its table with a bar: one Ctrl-C
    stops the waiting within a second and says the build goes on (it is kept)."""
    cache = tmp_path / "cache"
    try:
        with terminal("advise", "13356", "2", "--target", "300",
                      env=builder_env(cache, delay=1.0)) as run:  # fmt: skip
            run.await_text("Building the target table", STARTED_TIMEOUT)
            sent = time.monotonic()
            run.proc.send_signal(signal.SIGINT)
            run.proc.communicate(timeout=60)
            took = time.monotonic() - sent
            run.drain()
        assert run.proc.returncode == 130 and took < STOPPED_WITHIN_S, (took, run.seen)
        pid = read_state(cache).pid  # type: ignore[union-attr]
        assert f"goes on in the background (process {pid}) and is kept" in run.seen, run.seen
        assert builder_running(cache)
    finally:
        stop_builders(cache)


def test_solve_stopped_says_nothing_was_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def build(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("yahtzee.cli.progress.compile_first", lambda kind, what: None)
    monkeypatch.setattr("yahtzee.cli.solve.compile_first", lambda kind, what: None)
    monkeypatch.setattr("yahtzee.solver.Solver.build", build)
    assert main(["solve", "--rules", "no-joker"]) == 130
    assert "Stopped (Ctrl-C) before the table was solved: nothing kept." in capsys.readouterr().err


def test_any_other_command_stopped_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("yahtzee.cli.rules.run", interrupted)
    parser_run = main(["rules", "official"])
    assert parser_run == 130 and capsys.readouterr().err == "\nStopped (Ctrl-C).\n"


def test_one_ctrl_c_stops_a_server_on_its_first_start(tmp_path: Path) -> None:
    """Regression: on the first start after an install the server compiles the solver's
    kernels aside for tens of seconds; a Ctrl-C then waited for that (11 s here). A
    terminal's Ctrl-C (to the whole process group) now stops it at once, exit 0."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONIOENCODING": "utf-8"}
    port = free_port()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # (see Terminal)
    try:
        server = subprocess.Popen(
            [*yahtzee_command(), "serve", "--port", str(port), "--database-url",
             f"sqlite:///{tmp_path / 'r.db'}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, before)
    try:
        wait_until(lambda: _answers(port), timeout=START_TIMEOUT, what="the server answers")
        sent = time.monotonic()
        os.killpg(server.pid, signal.SIGINT)
        out, err = server.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate(timeout=30)
    assert server.returncode == 0, (server.returncode, err)
    assert took < STOPPED_WITHIN_S, took
    assert out.startswith(f"Yahtzee server: open http://127.0.0.1:{port}/")


def _answers(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
