"""The real parts a benchmark (and a test) starts on this machine, each a throwaway process
on 127.0.0.1 that its owner stops: PostgreSQL (Debian's ``initdb`` and ``pg_ctl``),
``redis-server``, nginx running the project's configuration
(``deploy/nginx/yahtzee.conf.template``) and ``yahtzee serve`` nodes.

A part whose program is not installed raises `MissingPart` naming the Debian package."""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Self

import httpx

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT = 10.0
"""Seconds for Redis or nginx to answer after their start."""
SERVE_TIMEOUT = 120.0
"""Seconds for a ``yahtzee serve`` node to answer: a cold solver cache takes about 30 s."""
POLL = 0.05


class MissingPart(RuntimeError):
    """A part's program is not installed here."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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


def binary(name: str) -> str:
    """The path of program ``name``; `MissingPart` when it is not installed."""
    path = find_binary(name)
    if path is None:
        raise MissingPart(f"{name} is not installed (Debian's package provides it)")
    return path


def accepts(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def redis_ping(port: int) -> bool:
    """Whether a Redis server on 127.0.0.1:``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class Part:
    """A child process in its own process group with its output in a temporary file and
    its files in a throwaway folder; a failed start raises with the output's tail.
    ``with Part(...) as part:`` starts it and stops it."""

    name = "process"

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.output: IO[bytes] | None = None
        self.folder = Path(tempfile.mkdtemp(prefix=f"yahtzee-{self.name}-"))

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        raise NotImplementedError

    def spawn(self, command: list[str], cwd: Path) -> None:
        """Run ``command`` in ``cwd``, its stdout and stderr to the output file."""
        self.close_output()
        # closed by stop(), which every start is paired with
        self.output = tempfile.TemporaryFile(prefix=f"yahtzee-{self.name}-")  # noqa: SIM115
        self.proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=self.output, stderr=subprocess.STDOUT,
                                     start_new_session=True)  # fmt: skip

    def wait_ready(self, ready: Callable[[], bool], timeout: float) -> None:
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
        return tail_of(self.output, size)

    def signal_group(self, sig: signal.Signals) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL to the whole process group, as a crash would."""
        if self.proc is not None:
            self.signal_group(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def terminate(self) -> None:
        """SIGTERM to the process group (then SIGKILL after 10 s); the folder stays."""
        if self.proc is not None and self.proc.poll() is None:
            self.signal_group(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def close_output(self) -> None:
        if self.output is not None:
            self.output.close()
            self.output = None

    def stop(self) -> None:
        """SIGTERM (then SIGKILL after 10 s); closes the output and removes the folder."""
        try:
            self.terminate()
        finally:
            self.close_output()
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()


def tail_of(output: IO[bytes] | None, size: int) -> str:
    """The last ``size`` bytes written to the temporary file ``output``."""
    if output is None:
        return ""
    length = os.fstat(output.fileno()).st_size
    start = max(0, length - size)
    return os.pread(output.fileno(), length - start, start).decode(errors="replace")


class LocalRedis(Part):
    """``redis-server`` on 127.0.0.1, without persistence, in a temporary folder."""

    name = "redis-server"

    def __init__(self, port: int | None = None, program: str | None = None) -> None:
        self.binary = program or binary("redis-server")  # before the folder is made
        super().__init__()
        self.port = port or free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        """Start it and wait until it answers PING."""
        self.spawn([self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--daemonize", "no",
                    "--dir", str(self.folder)], self.folder)  # fmt: skip
        self.wait_ready(lambda: redis_ping(self.port), timeout)
        return self

    def restart(self, timeout: float = START_TIMEOUT) -> Self:
        """Start again on the same port (after ``kill``, say), empty."""
        self.terminate()
        return self.start(timeout)


NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "yahtzee.conf.template"
"""The project's nginx configuration (the part inside ``http { }``), with placeholders."""
PLACEHOLDER = re.compile(r"\$\{(YAHTZEE_\w+)\}")
LOOPBACK_CONNECTIONS_PER_ADDRESS = 8192
"""Every client of a local nginx comes from 127.0.0.1: the per-address caps are nginx's
``worker_connections`` here."""
HASH_LINE = "hash $yahtzee_table consistent;"
FORWARDED_LINE = "proxy_set_header X-Forwarded-For   $remote_addr;"


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
    forwarded: bool = False,
) -> str:
    """An nginx configuration balancing 127.0.0.1:``port`` over the ``yahtzee serve`` nodes
    on ``upstream_ports``, its files under ``prefix``: the project's configuration
    (`NGINX_TEMPLATE`, as docs/deploy.md shows it: a table's requests go to one node by a
    consistent hash of the table's id, every other request round robin), plain HTTP
    on loopback, inside a main configuration of its own (``hashed=False``: every
    request round robin, for measuring the difference). ``forwarded``: the clients' own
    ``X-Forwarded-For`` is passed on, with their address appended (the project's
    configuration replaces it with their address): for a load generator on 127.0.0.1 that
    stands for many clients, each with its own address and limits. ``as_root`` (default:
    whether this process is root) adds ``user root;`` so that the worker may use the
    temporary folders in ``prefix``."""
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
            "YAHTZEE_CONNECTIONS_PER_ADDRESS": str(LOOPBACK_CONNECTIONS_PER_ADDRESS),
            "YAHTZEE_WEBSOCKETS_PER_ADDRESS": str(LOOPBACK_CONNECTIONS_PER_ADDRESS),
        },
    )
    if not hashed:
        if HASH_LINE not in site:
            raise ValueError(f"{NGINX_TEMPLATE} has no {HASH_LINE!r}")
        site = site.replace(HASH_LINE, "# round robin only (hashed=False)")
    if forwarded:
        if FORWARDED_LINE not in site:
            raise ValueError(f"{NGINX_TEMPLATE} has no {FORWARDED_LINE!r}")
        site = site.replace(
            FORWARDED_LINE, "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"
        )
    return f"""{user}worker_processes 1;
pid {prefix}/nginx.pid;
error_log stderr;

events {{
    worker_connections {LOOPBACK_CONNECTIONS_PER_ADDRESS};
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


class LocalNginx(Part):
    """nginx on 127.0.0.1 in front of ``upstream_ports``, its configuration and temporary
    files in a throwaway folder."""

    name = "nginx"

    def __init__(
        self,
        upstream_ports: list[int],
        *,
        port: int | None = None,
        hashed: bool = True,
        forwarded: bool = False,
        program: str | None = None,
    ) -> None:
        self.binary = program or binary("nginx")
        self.hashed, self.forwarded = hashed, forwarded
        super().__init__()
        self.upstream_ports = list(upstream_ports)
        self.port = port or free_port()
        self.config = self.folder / "nginx.conf"
        self.config.write_text(self.config_text())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def config_text(self) -> str:
        return render_nginx_config(
            self.upstream_ports,
            self.port,
            self.folder,
            hashed=self.hashed,
            forwarded=self.forwarded,
        )

    def start(self, timeout: float = START_TIMEOUT) -> Self:
        """Start it and wait until its port accepts connections."""
        self.spawn([self.binary, "-e", "stderr", "-p", str(self.folder), "-c", str(self.config),
                    "-g", "daemon off;"], self.folder)  # fmt: skip
        self.wait_ready(lambda: accepts(self.port), timeout)
        return self


def postgres_binaries() -> Path | None:
    """The folder of Debian's newest ``initdb`` and ``pg_ctl`` (else those on the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class LocalPostgres:
    """A PostgreSQL server of its own: ``initdb`` + ``pg_ctl`` into a temporary folder,
    on 127.0.0.1 only, fsync off (as root: run as the ``postgres`` user)."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="yahtzee-pg-"))
        self.port = free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root
            shutil.chown(self.folder, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        """Create and start the server; its administrator's URL."""
        data = self.folder / "data"
        self.run(str(self.binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c fsync=off -c max_connections=200")  # fmt: skip
        self.run(str(self.binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                 str(self.folder / "log"), "-w", "start")  # fmt: skip
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def postmaster_pid(self) -> int:
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop it at once and remove its folder."""
        subprocess.run([*self.prefix, str(self.binaries / "pg_ctl"), "-D",
                        str(self.folder / "data"), "-m", "immediate", "stop"],
                       capture_output=True, check=False, timeout=60)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def local_postgres() -> LocalPostgres | None:
    """A `LocalPostgres` (not started), or None where Debian's postgresql is missing."""
    binaries = postgres_binaries()
    if binaries is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        return None
    return LocalPostgres(binaries)


class ServerProcess:
    """``yahtzee serve`` as its own process on 127.0.0.1 (this interpreter's), so that its
    owner may kill it. ``extra_args`` come last on its command line: they win (over the
    default ``--bot-delay 0.05``, say).

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
        self.extra_args = list(extra_args or [])
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr: IO[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def start(self, timeout: float = SERVE_TIMEOUT) -> None:
        """Start the server and wait until it answers ``/api/health``. If it exits first,
        or does not answer within ``timeout`` seconds, it is killed and this raises with
        the tail of its stderr."""
        self.close_stderr()
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
        return tail_of(self.stderr, size)

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
            self.close_stderr()

    def close_stderr(self) -> None:
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None
