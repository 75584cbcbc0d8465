"""The table on disk: checked on load; anything damaged is rebuilt, never trusted."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from yahtzee import Category, RuleSet
from yahtzee.solver import SOLVER_VERSION, Solver
from yahtzee.solver.cache import CorruptTable, read_table, write_table

RULES = RuleSet.named("no-joker")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The table as `Solver.load` writes it: built once for the module (seconds each),
    each test gets its own copy of the file."""
    folder = tmp_path_factory.mktemp("built")
    Solver.load(RULES, directory=folder)
    (path,) = folder.glob("*.bin")
    return path.read_bytes()


@pytest.fixture
def cached(tmp_path: Path, built: bytes) -> Path:
    path = Solver.path_for(RULES, tmp_path)
    path.write_bytes(built)
    return path


def damage_truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1000])


def damage_flip_payload(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))


def damage_flip_header(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[3] ^= 0x01
    path.write_bytes(bytes(data))


def _rewrite_header(path: Path, **changes: object) -> None:
    line, _, payload = path.read_bytes().partition(b"\n")
    header = {**json.loads(line), **changes}
    path.write_bytes(json.dumps(header).encode() + b"\n" + payload)


def damage_version(path: Path) -> None:
    _rewrite_header(path, version=SOLVER_VERSION - 1)


def damage_rules(path: Path) -> None:
    _rewrite_header(path, scoring="joker=forced;bonus=100")


def damage_empty(path: Path) -> None:
    path.write_bytes(b"")


DAMAGE = [damage_truncate, damage_flip_payload, damage_flip_header, damage_version,
          damage_rules, damage_empty]  # fmt: skip


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_damaged_cache_is_detected_and_rebuilt(
    damage: object,
    cached: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = cached.read_bytes()
    damage(cached)  # type: ignore[operator]
    with pytest.raises(CorruptTable):
        read_table(cached, scoring_key=RULES.scoring_key, version=SOLVER_VERSION)
    with caplog.at_level(logging.WARNING, logger="yahtzee.solver"):
        solver = Solver.load(RULES, directory=cached.parent)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and record.name == "yahtzee.solver.solver"
    assert "rebuilding the solver table" in record.getMessage()
    assert capsys.readouterr() == ("", "")  # the library logs; it never prints
    assert round(solver.expected_total(), 4) == 253.9702
    assert cached.read_bytes() == good  # rebuilt and written again, exactly


def test_a_good_cache_loads_without_rebuilding(
    cached: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    stamp = cached.stat().st_mtime_ns
    with caplog.at_level(logging.DEBUG, logger="yahtzee.solver"):
        Solver.load(RULES, directory=cached.parent)
    assert cached.stat().st_mtime_ns == stamp
    assert caplog.records == []
    assert capsys.readouterr().err == ""


def test_a_build_reports_progress_to_the_caller_and_draws_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports: list[tuple[int, int]] = []
    Solver.load(
        RULES, directory=tmp_path, progress=lambda done, total: reports.append((done, total))
    )
    total = len(Category)
    assert reports == [(done, total) for done in range(total + 1)]  # (0, total) first
    assert capsys.readouterr() == ("", "")
    Solver.load(RULES, directory=tmp_path, progress=lambda *_: reports.append((0, 0)))
    assert len(reports) == total + 1  # a cached table loads without reports


def test_write_is_atomic_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    table = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    path = tmp_path / "t.bin"
    write_table(path, table, scoring_key="k", version=7)
    assert [p.name for p in tmp_path.iterdir()] == ["t.bin"]
    assert np.array_equal(read_table(path, scoring_key="k", version=7), table)
