"""Redis and nginx for the cluster tests, as throwaway processes on 127.0.0.1.

CI (``.ci/run``) installs Debian's redis-server and nginx; locally a test that needs one
that is missing is skipped with the reason (under CI it fails: nothing is skipped there)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Self

import pytest

from tests.server_process import ROOT, free_port
from tests.waiting import POLL

START_TIMEOUT = 10.0


def find_binary(name: str) -> str | None:
    """``name`` on the PATH, else in /usr/sbin or /usr/bin (not always on a user's PATH)."""
    found = shutil.which(name)
    if found:
        return found
    for folder in ("/usr/sbin", "/usr/bin"):
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


def require(binary: str) -> str:
    """The path of ``binary``; without it the test is skipped, or fails under CI."""
    path = find_binary(binary)
    if path is None:
        reason = f"{binary} is not installed (Debian's package provides it; .ci/run installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the cluster tests: {reason}.")
        pytest.skip(reason)
    return path


def accepts(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


class _Process:
    """A child process in its own process group with its output in a temporary file; a
    failed start raises with the output's tail."""

    name = "process"

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.output: IO[bytes] | None = None
        self.folder = Path(tempfile.mkdtemp(prefix=f"yahtzee-{self.name}-"))

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        raise NotImplementedError

    def _spawn(self, command: list[str], cwd: Path) -> None:
        self._close_output()
        # closed by stop(), which every start is paired with
        self.output = tempfile.TemporaryFile(prefix=f"yahtzee-{self.name}-")  # noqa: SIM115
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=self.output, stderr=subprocess.STDOUT,
                                     start_new_session=True)  # fmt: skip

    def _wait_ready(self, ready: Callable[[], bool], timeout: float) -> None:
        """Poll ``ready()`` until true; raise (after stopping) if the process exits first
        or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc is not None
            code = self.proc.poll()
            if code is not None:
                tail = self.output_tail()
                self.stop()
                raise RuntimeError(f"{self.name} exited ({code}) before it was ready:\n{tail}")
            if ready():
                return
            if time.monotonic() >= deadline:
                tail = self.output_tail()
                self.stop()
                raise RuntimeError(f"{self.name} was not ready within {timeout:g} s:\n{tail}")
            time.sleep(POLL)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def output_tail(self, size: int = 4000) -> str:
        """The last ``size`` bytes of the process's stdout and stderr."""
        if self.output is None:
            return ""
        length = os.fstat(self.output.fileno()).st_size
        start = max(0, length - size)
        return os.pread(self.output.fileno(), length - start, start).decode(errors="replace")

    def _signal_group(self, sig: signal.Signals) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL to the whole process group, as a crash would."""
        if self.proc is not None:
            self._signal_group(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def _terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def _close_output(self) -> None:
        if self.output is not None:
            self.output.close()
            self.output = None

    def stop(self) -> None:
        """SIGTERM (then SIGKILL after 10 s); closes the output and removes the folder."""
        try:
            self._terminate()
        finally:
            self._close_output()
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def redis_ping(port: int) -> bool:
    """Whether a Redis server on 127.0.0.1:``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class LocalRedis(_Process):
    """``redis-server`` on 127.0.0.1, without persistence, in a temporary folder.
    ``with LocalRedis() as redis:`` starts it and stops it (and removes the folder)."""

    name = "redis-server"

    def __init__(self, port: int | None = None) -> None:
        self.binary = require("redis-server")  # before the folder is made: it may skip
        super().__init__()
        self.port = port or free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        """Start it and wait until it answers PING."""
        self._spawn([self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no", "--daemonize", "no",
                     "--dir", str(self.folder)], self.folder)  # fmt: skip
        self._wait_ready(lambda: redis_ping(self.port), timeout)
        return self

    def restart(self, timeout: float = START_TIMEOUT) -> Self:
        """Start again on the same port (after ``kill``, say), empty."""
        self._terminate()
        return self.start(timeout)


NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "yahtzee.conf.template"
"""The project's nginx configuration (the part inside ``http { }``), with placeholders."""
PLACEHOLDER = re.compile(r"\$\{(YAHTZEE_\w+)\}")
TEST_CONNECTIONS_PER_ADDRESS = 8192
"""The tests' clients all come from 127.0.0.1: the per-address caps are nginx's
``worker_connections`` here."""
HASH_LINE = "hash $yahtzee_table consistent;"


def fill_placeholders(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``${YAHTZEE_NAME}`` replaced by ``values[NAME]``, as
    envsubst does given those names; KeyError for one without a value."""
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], template)


def render_nginx_config(
    upstream_ports: list[int],
    port: int,
    prefix: str | Path,
    *,
    as_root: bool | None = None,
    hashed: bool = True,
) -> str:
    """An nginx configuration balancing 127.0.0.1:``port`` over the ``yahtzee serve`` nodes
    on ``upstream_ports``, its files under ``prefix``: the project's configuration
    (`NGINX_TEMPLATE`, as docs/deploy.md shows it: a table's requests go to one node by a
    consistent hash of the table's id, every other request round robin), plain HTTP
    on loopback, inside a main configuration of the tests' own (``hashed=False``: every
    request round robin, for measuring the difference). ``as_root`` (default: whether
    this process is root) adds ``user root;`` so that the worker may use the temporary
    folders in ``prefix``."""
    prefix = Path(prefix)
    root = os.geteuid() == 0 if as_root is None else as_root
    user = "user root;\n" if root else ""
    site = fill_placeholders(
        NGINX_TEMPLATE.read_text(),
        {
            "YAHTZEE_NODES": "\n    ".join(
                f"server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;" for p in upstream_ports
            ),
            "YAHTZEE_LISTEN": f"listen 127.0.0.1:{port};",
            "YAHTZEE_SERVER_NAME": "127.0.0.1",
            "YAHTZEE_CONNECTIONS_PER_ADDRESS": str(TEST_CONNECTIONS_PER_ADDRESS),
            "YAHTZEE_WEBSOCKETS_PER_ADDRESS": str(TEST_CONNECTIONS_PER_ADDRESS),
        },
    )
    if not hashed:
        assert HASH_LINE in site, f"{NGINX_TEMPLATE} has no {HASH_LINE!r}"
        site = site.replace(HASH_LINE, "# round robin only (hashed=False)")
    return f"""{user}worker_processes 1;
pid {prefix}/nginx.pid;
error_log stderr;

events {{
    worker_connections {TEST_CONNECTIONS_PER_ADDRESS};
}}

http {{
    access_log off;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;

{textwrap.indent(site, "    ")}}}
"""


class LocalNginx(_Process):
    """nginx on 127.0.0.1 in front of ``upstream_ports``, its configuration and temporary
    files in a throwaway folder. ``with LocalNginx([...]) as nginx:`` starts and stops it."""

    name = "nginx"

    def __init__(
        self, upstream_ports: list[int], *, port: int | None = None, hashed: bool = True
    ) -> None:
        self.binary = require("nginx")
        self.hashed = hashed
        super().__init__()
        self.upstream_ports = list(upstream_ports)
        self.port = port or free_port()
        self.config = self.folder / "nginx.conf"
        self.config.write_text(self.config_text())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config_text(self) -> str:
        return render_nginx_config(self.upstream_ports, self.port, self.folder, hashed=self.hashed)

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        """Start it and wait until its port accepts connections."""
        self._spawn([self.binary, "-e", "stderr", "-p", str(self.folder), "-c", str(self.config),
                     "-g", "daemon off;"], self.folder)  # fmt: skip
        self._wait_ready(lambda: accepts(self.port), timeout)
        return self
