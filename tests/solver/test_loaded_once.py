"""One load per key for the whole process, and a slow load holds up no other key's.

Regression: every rule set's solver loaded under one lock, so a variant's table being
built (a held load here; a fresh cache's build on a busy machine) held up the official
rules' first bot move on a server for as long (a cluster test timed out in CI, waiting
behind a terminal test's build in the same worker)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from yahtzee import RuleSet
from yahtzee.solver import cached_solver
from yahtzee.solver import solver as solver_module
from yahtzee.solver.loaded_once import LoadedOnce

WAIT_S = 30.0


def test_threads_asking_for_one_key_wait_for_one_load() -> None:
    loads: list[str] = []
    gate = threading.Event()
    kept: LoadedOnce[str, str] = LoadedOnce()

    def load() -> str:
        loads.append("x")
        assert gate.wait(WAIT_S)
        return "value"

    with ThreadPoolExecutor(4) as pool:
        asked = [pool.submit(kept.get, "k", load) for _ in range(4)]
        gate.set()
        assert [f.result(WAIT_S) for f in asked] == ["value"] * 4
    assert loads == ["x"] and "k" in kept


def test_a_failed_load_is_not_kept() -> None:
    kept: LoadedOnce[str, int] = LoadedOnce()

    def failing() -> int:
        raise OSError("disk gone")

    with pytest.raises(OSError):
        kept.get("k", failing)
    assert "k" not in kept
    assert kept.get("k", lambda: 7) == 7


def test_a_held_load_of_one_rule_set_holds_up_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver_module, "_LOADED", LoadedOnce())
    gate, started = threading.Event(), threading.Event()
    real_load = solver_module.Solver.load.__func__  # type: ignore[attr-defined]

    def held_load(cls: type, rules: RuleSet, **kwargs: object) -> object:
        if rules.name == "no-joker":
            started.set()
            assert gate.wait(WAIT_S), "the test never opened the gate"
        return real_load(cls, rules, **kwargs)

    monkeypatch.setattr(solver_module.Solver, "load", classmethod(held_load))
    with ThreadPoolExecutor(2) as pool:
        try:
            variant = pool.submit(cached_solver, RuleSet.named("no-joker"))
            assert started.wait(WAIT_S)
            official = pool.submit(cached_solver, RuleSet.official())
            assert official.result(WAIT_S).rules == RuleSet.official()  # while held
            assert not variant.done()
        finally:
            gate.set()
        assert variant.result(WAIT_S * 4).rules.name == "no-joker"
