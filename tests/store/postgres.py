"""A PostgreSQL server for the tests: the one CI starts (``YAHTZEE_TEST_POSTGRES_URL``), or
a throwaway local one when Debian's postgresql is installed."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

URL_ENV = "YAHTZEE_TEST_POSTGRES_URL"


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class LocalServer:
    """initdb + pg_ctl into a temporary folder, on 127.0.0.1 only."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="yahtzee-pg-"))
        self.port = _free_port()
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # initdb refuses to run as root
            shutil.chown(self.folder, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        data = self.folder / "data"
        self._run(str(self.binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c fsync=off -c max_connections=200")  # fmt: skip
        self._run(str(self.binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l",
                  str(self.folder / "log"), "-w", "start")  # fmt: skip
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run([*self.prefix, str(self.binaries / "pg_ctl"), "-D",
                        str(self.folder / "data"), "-m", "immediate", "stop"],
                       capture_output=True, check=False, timeout=60)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def local_server() -> LocalServer | None:
    binaries = _binaries()
    if binaries is None or (os.geteuid() == 0 and shutil.which("runuser") is None):
        return None
    return LocalServer(binaries)
