"""The advisor's table file for the page (`solver.web_table`): reachable states only, in
fixed point, and exactly what was encoded or refused."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yahtzee.core import Category, RuleSet
from yahtzee.solver import Solver
from yahtzee.solver.cache import CorruptTable
from yahtzee.solver.shipped import reachable
from yahtzee.solver.solver import TABLE_SHAPE
from yahtzee.solver.tables import UPPER_CAP, YAHTZEE_BIT
from yahtzee.solver.web_table import SCALE, decode, encode, reachable_states, read_header

HALF_STEP = 0.5 / SCALE


def upper_sums(mask: int) -> set[int]:
    """Every capped subtotal the filled upper boxes of ``mask`` can hold, by brute force."""
    filled = [c for c in Category.upper() if mask >> c & 1]
    return {
        min(UPPER_CAP, sum(n * c.face for n, c in zip(counts, filled, strict=True)))
        for counts in itertools.product(range(6), repeat=len(filled))
    }


def test_the_reachable_states_are_the_subtotals_the_upper_boxes_can_hold() -> None:
    found = reachable_states()
    assert found.shape == TABLE_SHAPE and int(found.sum()) == 536_448
    assert not (found & ~reachable(TABLE_SHAPE)).any()  # within the solver's own bound
    for upper in range(64):  # every set of upper boxes, with and without the Yahtzee box
        for mask in (upper, upper | YAHTZEE_BIT | 1 << Category.CHANCE):
            sums = upper_sums(mask)
            assert set(np.flatnonzero(found[mask, 0])) == sums
            expected = sums if mask & YAHTZEE_BIT else set()
            assert set(np.flatnonzero(found[mask, 1])) == expected


def random_table(seed: int, top: float) -> np.ndarray:
    values = np.random.default_rng(seed).uniform(0.0, top, TABLE_SHAPE)
    return np.where(reachable_states(), values, 0.0)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), top=st.sampled_from([1e-3, 1.0, 300.0, 1600.0, 32767.0]))
def test_a_table_comes_back_to_within_half_a_step(seed: int, top: float) -> None:
    rules = RuleSet.official()
    table = random_table(seed, top)
    back = decode(encode(table, rules), rules)
    assert np.abs(back - table).max() <= HALF_STEP * (1 + 1e-9)
    assert not back[~reachable_states()].any()


def test_the_official_table_file(official: Solver) -> None:
    rules = official.rules
    data = encode(official.table, rules)
    header, payload = read_header(data)
    assert (header.scoring, header.count, header.cap) == (rules.scoring_key, 536_448, 63)
    assert len(payload) == 4 * header.count
    back = decode(data, rules)
    where = reachable_states()
    assert np.abs(back - official.table)[where].max() <= HALF_STEP * (1 + 1e-9)


@pytest.fixture(scope="module")
def small_file() -> bytes:
    return encode(random_table(7, 300.0), RuleSet.official())


def damaged(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x10]) + data[at + 1 :]


def test_a_flipped_byte_truncation_or_padding_is_refused(small_file: bytes) -> None:
    rules = RuleSet.official()
    with pytest.raises(CorruptTable, match="checksum"):
        decode(damaged(small_file, len(small_file) - 1000), rules)
    with pytest.raises(CorruptTable, match="truncated"):
        decode(small_file[:-1], rules)
    with pytest.raises(CorruptTable, match="truncated"):
        decode(small_file + b"\0", rules)
    with pytest.raises(CorruptTable):
        decode(small_file[:40], rules)
    with pytest.raises(CorruptTable, match="not an advisor table"):
        decode(b"", rules)


def test_a_file_for_other_rules_or_another_version_is_refused(small_file: bytes) -> None:
    with pytest.raises(CorruptTable, match="other rules"):
        decode(small_file, RuleSet.named("no-joker"))
    line, _, payload = small_file.partition(b"\n")
    header = json.loads(line)
    for field, value in (("version", 2), ("solver_version", 0), ("count", 5), ("cap", 62)):
        changed = json.dumps({**header, field: value}).encode() + b"\n" + payload
        with pytest.raises(CorruptTable):
            decode(changed, RuleSet.official())
    without = json.dumps({k: v for k, v in header.items() if k != "sha256"}).encode()
    with pytest.raises(CorruptTable, match="lacks"):
        decode(without + b"\n" + payload, RuleSet.official())


def test_a_table_of_other_shape_or_values_is_not_encoded() -> None:
    with pytest.raises(ValueError, match="shape"):
        encode(np.zeros((2, 2, 64)), RuleSet.official())
    bad = np.zeros(TABLE_SHAPE)
    bad[0, 0, 0] = -1.0
    with pytest.raises(ValueError, match="points"):
        encode(bad, RuleSet.official())
