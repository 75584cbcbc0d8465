from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from yahtzee import RuleSet
from yahtzee.solver import Solver


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Solver tables go to a fresh folder, never the user's cache."""
    path = tmp_path_factory.mktemp("solver-cache")
    old = os.environ.get("YAHTZEE_CACHE_DIR")
    os.environ["YAHTZEE_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["YAHTZEE_CACHE_DIR"]
    else:
        os.environ["YAHTZEE_CACHE_DIR"] = old


_SOLVERS: dict[str, Solver] = {}


def solver_for(name: str) -> Solver:
    if name not in _SOLVERS:
        _SOLVERS[name] = Solver.load(RuleSet.named(name))
    return _SOLVERS[name]


@pytest.fixture(scope="session")
def official(solver_cache: Path) -> Solver:
    return solver_for("official")
