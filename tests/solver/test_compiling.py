"""Kernels missing from numba's cache are compiled once, however many processes find them
missing at the same moment (`solver.compiling.compile_aside`)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from yahtzee.solver import compiling

WAIT_S = 30.0


def test_callers_that_find_a_kernel_missing_at_once_compile_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three callers find the kernels missing together: one child compiles them, while
    the others wait on the lock beside the cache and then find them cached."""
    compiled = tmp_path / "compiled"
    children: list[str] = []
    started = threading.Barrier(3, timeout=WAIT_S)

    def is_cached(kind: compiling.Kind) -> bool:
        return compiled.exists()

    def child(kind: compiling.Kind) -> bool:
        children.append(kind)
        threading.Event().wait(0.5)  # a compile takes a while: the others are waiting
        compiled.touch()
        return True

    monkeypatch.setattr(compiling, "cached", is_cached)
    monkeypatch.setattr(compiling, "_compile_in_child", child)
    answers: list[bool] = []

    def call() -> None:
        started.wait()
        answers.append(compiling.compile_aside("turn"))

    threads = [threading.Thread(target=call) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=WAIT_S)
    assert answers == [True, True, True]
    assert children == ["turn"]
