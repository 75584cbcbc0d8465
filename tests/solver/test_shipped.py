"""The table that ships with the package: exactly the one the solver builds, checked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from yahtzee import RuleSet
from yahtzee.solver import SOLVER_VERSION, Solver, shipped
from yahtzee.solver import solver as solver_module
from yahtzee.solver.cache import CorruptTable
from yahtzee.solver.solver import build_table

OFFICIAL = RuleSet.official()


@pytest.mark.parametrize(("name", "value"), [("official", 254.5877), ("yatzy", 248.44)])
def test_the_shipped_table_is_the_table_the_solver_builds(name: str, value: float) -> None:
    """Regenerate with scripts/make_shipped_tables.py after a deliberate change."""
    assert name in shipped.SHIPPED
    rules = RuleSet.named(name)
    found = shipped.load_shipped(rules, SOLVER_VERSION)
    assert found is not None
    np.testing.assert_allclose(found, build_table(rules), rtol=0, atol=1e-9)
    assert round(float(found[0, 0, 0]), len(str(value).split(".")[1])) == value


def test_a_fresh_install_loads_the_shipped_table_without_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_build(*_: object, **__: object) -> None:
        raise AssertionError("built a table that ships")

    monkeypatch.setattr(solver_module, "build_table", no_build)
    solver = Solver.load(OFFICIAL, directory=tmp_path)
    assert round(solver.expected_total(), 4) == 254.5877
    yatzy = Solver.load(RuleSet.named("yatzy"), directory=tmp_path)
    assert round(yatzy.expected_total(), 2) == 248.44
    assert len(list(tmp_path.glob("*.bin"))) == 2  # cached for the next time
    with pytest.raises(AssertionError, match="built a table"):
        Solver.load(RuleSet.named("no-joker"), directory=tmp_path)  # none ships for these


def test_encoding_round_trips_and_damage_is_refused() -> None:
    rng = np.random.default_rng(1)
    table = np.where(shipped.reachable((8192, 2, 64)), rng.random((8192, 2, 64)), 0.0)
    data = shipped.encode(table, OFFICIAL, SOLVER_VERSION)
    assert np.array_equal(shipped.decode(data, OFFICIAL, SOLVER_VERSION), table)
    damaged = bytearray(data)
    damaged[-100] ^= 0x01
    with pytest.raises(CorruptTable):
        shipped.decode(bytes(damaged), OFFICIAL, SOLVER_VERSION)
    with pytest.raises(CorruptTable, match="other rules"):
        shipped.decode(data, RuleSet.named("no-joker"), SOLVER_VERSION)
    with pytest.raises(CorruptTable, match=r"truncated|damaged"):
        shipped.decode(data[:-5000], OFFICIAL, SOLVER_VERSION)


def test_the_start_distribution_is_kept_where_it_ships(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`yahtzee solve` compiles the distribution's kernels only where no file holds the
    empty card's distribution (it ships for the official rules and Yatzy)."""
    from yahtzee.solver.distribution import start_distribution_kept

    monkeypatch.setenv("YAHTZEE_CACHE_DIR", str(tmp_path))
    assert start_distribution_kept(RuleSet.named("official"))
    assert start_distribution_kept(RuleSet.named("yatzy"))
    assert not start_distribution_kept(RuleSet.named("yatzy+fh5"))
