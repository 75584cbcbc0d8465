"""Helpers the benchmark scripts share: fresh interpreters and throwaway peer installs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path


def run_python(code: str, env: dict[str, str] | None = None, python: str = sys.executable) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object last."""
    result = subprocess.run(
        [python, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def peer_python(package: str) -> str | None:
    """A throwaway virtual environment with ``package`` installed from PyPI: its
    interpreter, or ``None`` (with the reason printed) when the install fails."""
    venv = Path(tempfile.mkdtemp(prefix=f"{package}-")) / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", package],
        capture_output=True,
        text=True,
        check=False,
    )
    if install.returncode != 0:
        print(f"({package} did not install: {install.stderr.strip()[-200:]})")
        return None
    return python
