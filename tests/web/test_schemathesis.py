"""schemathesis against the served OpenAPI document: no request makes the server fail."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.server_process import ServerProcess


def test_no_server_errors(server: ServerProcess) -> None:
    found = Path(sys.executable).with_name("schemathesis")
    command = str(found) if found.exists() else shutil.which("schemathesis")
    assert command, "schemathesis is part of the test extra"
    result = subprocess.run(
        [
            command,
            "run",
            f"{server.base}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            "60",
            "--generation-deterministic",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:]
