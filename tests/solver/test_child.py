"""Child processes never import what lies in the folder the program was started from
(regression: a ``timeit.py`` there ran in every kernel-compiling child), nor read the
user's site folder or ``PYTHON*`` variables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import yahtzee_command
from tests.server_process import free_port
from tests.waiting import ended, wait_until
from yahtzee.solver.child import python_child

ROOT = Path(__file__).resolve().parents[2]
SHADOWS = ("timeit", "fractions", "statistics", "numbers", "yahtzee")
"""Names a hostile or careless folder could hold: standard modules numba and the solver
import, and this package's own name."""


def _hostile_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    for name in SHADOWS:
        marker = tmp_path / f"imported-{name}"
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    return folder


def _imported(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.glob("imported-*"))


def test_a_child_started_from_a_hostile_folder_imports_nothing_from_it(tmp_path: Path) -> None:
    folder = _hostile_folder(tmp_path)
    code = "import timeit, fractions, statistics, numbers, yahtzee; print(yahtzee.__file__)"
    done = subprocess.run(
        python_child(code), cwd=folder, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(folder), "PYTHONSTARTUP": str(folder / "timeit.py")},
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _imported(tmp_path) == []
    assert Path(done.stdout.strip()).is_relative_to(ROOT / "src")  # this very package


def test_the_same_command_without_isolation_would_have_imported_it(tmp_path: Path) -> None:
    """The folder above is hostile indeed: a plain ``python -c`` runs its ``timeit.py``."""
    folder = _hostile_folder(tmp_path)
    subprocess.run([sys.executable, "-c", "import timeit"], cwd=folder, timeout=60, check=True)
    assert _imported(tmp_path) == ["imported-timeit"]


def test_every_child_process_goes_through_python_child() -> None:
    raw = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "src").rglob("*.py"))
        if path.name != "child.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "sys.executable" in line
    ]
    assert raw == []


def test_a_server_started_from_a_hostile_folder_never_imports_from_it(tmp_path: Path) -> None:
    """``yahtzee serve`` from that folder, empty caches: its kernel-compiling children run
    until the solver is ready, and nothing of the folder is imported."""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    folder = _hostile_folder(tmp_path)
    caches = {
        name: str(tmp_path / name.lower())
        for name in ("NUMBA_CACHE_DIR", "YAHTZEE_CACHE_DIR", "XDG_CACHE_HOME", "XDG_DATA_HOME")
    }
    port = free_port()
    proc = subprocess.Popen(
        [*yahtzee_command(), "serve", "--port", str(port),
         "--database-url", f"sqlite:///{tmp_path / 'games.db'}"],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, **caches, "YAHTZEE_NO_TABLE_BUILDS": "1"},
    )  # fmt: skip
    with ended(proc):

        def ready() -> bool:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
            except httpx.HTTPError:
                return False
            return answer.status_code == 200 and answer.json().get("solver") == "ready"

        wait_until(ready, timeout=300, what="the solver ready (its kernels compiled aside)")
    assert any(Path(caches["NUMBA_CACHE_DIR"]).rglob("*.nbi"))  # children did compile
    assert _imported(tmp_path) == []


def test_kernels_found_missing_are_looked_for_again_after_a_second_not_at_every_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The win meter asks whether the curve kernels are compiled at every move: a "no"
    stands for `RECHECK_S` (no file looked at meanwhile), then the files are looked at
    again; a "yes" stands for good."""
    from yahtzee.solver import compiling

    looked: list[str] = []
    clock = [100.0]
    present = [False]

    class Index:
        def __init__(self) -> None:
            looked.append("looked")

        def is_file(self) -> bool:
            return present[0]

    monkeypatch.setattr(compiling, "_CACHED", set())
    monkeypatch.setattr(compiling, "_MISSING", {})
    monkeypatch.setattr(compiling, "_clock", lambda: clock[0])
    monkeypatch.setattr(compiling, "Path", lambda _: Index())
    fake = type("D", (), {"_cache": type("C", (), {"_cache_file": type("F", (), {
        "_index_path": "x"})})})  # fmt: skip
    monkeypatch.setattr(compiling, "_dispatchers", lambda kind: [fake])
    assert not compiling.cached("curves") and len(looked) == 1
    clock[0] += compiling.RECHECK_S / 2
    assert not compiling.cached("curves") and len(looked) == 1  # the "no" stands
    present[0] = True
    clock[0] += compiling.RECHECK_S
    assert compiling.cached("curves") and len(looked) == 2  # looked again: found
    present[0] = False
    assert compiling.cached("curves") and len(looked) == 2  # a "yes" stands for good
