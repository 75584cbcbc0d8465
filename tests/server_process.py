"""``yahtzee serve`` as its own process on 127.0.0.1, for tests that need a real server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

import httpx

from tests.waiting import POLL

ROOT = Path(__file__).resolve().parent.parent

# A cold solver cache takes about 30 s before the server answers; this is generous.
START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``yahtzee serve`` as its own process, on 127.0.0.1, so a test can kill it.

    Its stderr goes to a temporary file (a pipe nobody reads could fill and stall the
    server); a failed start reports the file's tail."""

    def __init__(
        self,
        database_url: str,
        env: dict[str, str] | None = None,
        extra_args: list[str] | None = None,
    ) -> None:
        self.url = database_url
        self.env = env
        self.extra_args = list(extra_args or [])  # appended to the command line: they win
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr: IO[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the server and wait until it answers ``/api/health``. If it exits first,
        or does not answer within ``timeout`` seconds, it is killed and this raises with
        the tail of its stderr."""
        self._close_stderr()
        # closed by stop(), which every start is paired with
        self.stderr = tempfile.TemporaryFile(prefix="yahtzee-serve-", suffix=".stderr")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yahtzee", "serve", "--port", str(self.port),
             "--database-url", self.url, "--bot-delay", "0.05", *self.extra_args],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=self.stderr,
            env={**os.environ, **(self.env or {})},
        )  # fmt: skip
        health = f"{self.base}/api/health"
        deadline = time.monotonic() + timeout
        while True:
            code = self.proc.poll()
            if code is not None:
                tail = self.stderr_tail()
                self.stop()
                raise RuntimeError(f"the server exited ({code}) before it answered:\n{tail}")
            try:
                if httpx.get(health, timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() >= deadline:
                self.kill()
                tail = self.stderr_tail()
                self.stop()
                raise RuntimeError(
                    f"the server did not answer {health} within {timeout:g} s:\n{tail}"
                )
            time.sleep(POLL)

    def stderr_tail(self, size: int = 4000) -> str:
        """The last ``size`` bytes the server wrote to stderr."""
        if self.stderr is None:
            return ""
        fd = self.stderr.fileno()
        length = os.fstat(fd).st_size
        start = max(0, length - size)
        return os.pread(fd, length - start, start).decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as a crash would; ``start`` may follow."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and close its stderr file."""
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.kill()
        finally:
            self._close_stderr()

    def _close_stderr(self) -> None:
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None
