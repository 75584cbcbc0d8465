"""Debian's Chromium for tests: found, or the test is skipped (never in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must have Chromium: .ci/run installs Debian's chromium package.")
        pytest.skip("Chromium is not installed (apt-get install chromium).")
    return found


def print_to_pdf(page: Path, pdf: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--no-pdf-header-footer",
             f"--print-to-pdf={pdf}", page.as_uri()],
            capture_output=True, timeout=120, check=True,
        )  # fmt: skip
