"""Run the page's JavaScript modules under node, once, over a batch of inputs.

The parity tests (the JS rules engine, the advisor, the bots) call :func:`run_js`:
the named modules of ``src/yahtzee/web/static/`` are copied into a temporary folder
beside a ``package.json`` of ``{"type": "module"}`` (so ``.js`` loads as an ES module on
every node version) and a small ``js_io.js``; the test's driver script (ES module text)
is written there as ``driver.js``, its input as JSON, and ``node driver.js`` runs once.
The driver reads the input and writes its answer with ``js_io.js``::

    import { input, answer } from "./js_io.js";
    import { scoreBox } from "./engine_rules.js";
    answer(input.map((case_) => scoreBox(case_)));

Without node the test is skipped with the reason; under CI (``CI`` set) it fails: CI
installs node (Debian's ``npm`` package brings it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "yahtzee" / "web" / "static"
TIMEOUT = 120.0  # seconds for one node run (a whole parity batch)

IO_MODULE = """\
import { readFileSync, writeFileSync } from "node:fs";

/** The test's input (the JSON the test passed to run_js). */
export const input = JSON.parse(readFileSync(process.argv[2], "utf8"));

/** Write the driver's answer (any JSON value); the test reads it back. */
export function answer(value) {
  writeFileSync(process.argv[3], JSON.stringify(value));
}
"""


def node() -> str:
    """The path of ``node``; without it the test is skipped, or fails under CI."""
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        reason = "node is not installed (Debian's nodejs; .ci/run installs npm, which brings it)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the JavaScript parity tests: {reason}.")
        pytest.skip(reason)
    return found


def run_js(
    modules: Sequence[str],
    driver: str,
    data: Any = None,
    *,
    timeout: float = TIMEOUT,
    static: Path = STATIC,
) -> Any:
    """Run ``driver`` (ES module text) once under node beside copies of ``modules`` (file
    names in ``static``, the page's static folder unless a test names a scratch copy), with
    ``data`` as its input; answer what the driver passed to ``answer()`` (parsed JSON).

    A driver that fails (an exception, a non-zero exit, no answer) or runs past
    ``timeout`` seconds fails the test with node's output."""
    program = node()
    with tempfile.TemporaryDirectory(prefix="yahtzee-js-") as folder:
        root = Path(folder)
        (root / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        (root / "js_io.js").write_text(IO_MODULE, encoding="utf-8")
        for name in modules:
            shutil.copyfile(static / name, root / name)
        (root / "driver.js").write_text(driver, encoding="utf-8")
        (root / "input.json").write_text(json.dumps(data), encoding="utf-8")
        output = root / "output.json"
        try:
            done = subprocess.run(
                [program, "driver.js", "input.json", "output.json"],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            pytest.fail(f"node ran past {timeout} s: {error.stderr!r}")
        if done.returncode != 0:
            pytest.fail(f"node exited with {done.returncode}:\n{done.stderr}{done.stdout}")
        if not output.exists():
            pytest.fail(f"the driver wrote no answer:\n{done.stderr}{done.stdout}")
        return json.loads(output.read_text(encoding="utf-8"))
