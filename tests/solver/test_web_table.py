"""The advisor's table file for the page (`solver.web_table`): reachable states only, in
fixed point, and exactly what was encoded or refused."""

from __future__ import annotations

import hashlib
import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.solver.conftest import solver_for
from yahtzee.core import Category, RuleSet, YatzyBox
from yahtzee.solver import Solver
from yahtzee.solver.cache import CorruptTable
from yahtzee.solver.shipped import reachable
from yahtzee.solver.solver import TABLE_SHAPE, table_shape
from yahtzee.solver.tables import UPPER_CAP, YAHTZEE_BIT
from yahtzee.solver.web_table import SCALE, decode, encode, reachable_states, read_header

HALF_STEP = 0.5 / SCALE
OFFICIAL_FILE_SHA256 = "02ce854b0141da26dd08bea620ba36e1d0d402203491e35b4d830d8813c9e2a9"
"""The official rules' file as phones keep it (its address and checksum cached for good)."""


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


def test_the_reachable_states_of_every_card() -> None:
    """Yatzy's card: 15 boxes, no ``yf``; under ``ordered`` only the first boxes filled."""
    yatzy = reachable_states(RuleSet.named("yatzy"))
    assert yatzy.shape == table_shape(RuleSet.named("yatzy")) == (1 << 15, 1, 64)
    assert int(yatzy.sum()) == 1_430_528
    assert not (yatzy & ~reachable(yatzy.shape, RuleSet.named("yatzy"))).any()
    pairs = 1 << YatzyBox.ONE_PAIR | 1 << YatzyBox.TWO_PAIRS
    for upper in (0, 1, 0b101010, 63):
        for mask in (upper, upper | pairs | 1 << YatzyBox.YATZY):
            assert set(np.flatnonzero(yatzy[mask, 0])) == upper_sums(upper)
    for name in ("yatzy+forced", "official+forced"):
        rules = RuleSet.named(name)
        found = reachable_states(rules)
        n = len(rules.boxes)
        masks = set(np.flatnonzero(found.any(axis=(1, 2))))
        assert masks == {(1 << k) - 1 for k in range(n + 1)}
        assert found.shape == table_shape(rules)
        free = reachable_states(RuleSet.named(name.removesuffix("+forced")))
        prefixes = sorted(masks)
        assert (found[prefixes] == free[prefixes]).all()


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


def test_the_official_table_file_is_the_one_phones_keep(official: Solver) -> None:
    data = encode(official.table, official.rules)
    assert hashlib.sha256(data).hexdigest() == OFFICIAL_FILE_SHA256
    assert b'"boxes"' not in data.partition(b"\n")[0]  # the American card: unsaid


@pytest.mark.parametrize("name", ["yatzy", "yatzy+forced", "official+forced"])
def test_the_table_file_of_every_card(name: str) -> None:
    solver = solver_for(name)
    rules = solver.rules
    data = encode(solver.table, rules)
    header, payload = read_header(data)
    card = len(rules.boxes), rules.edition.extra_rules, rules.ordered
    assert (header.shape.boxes, header.shape.yahtzee_box is not None, header.shape.ordered) == card
    assert header.scoring == rules.scoring_key and len(payload) == 4 * header.count
    where = reachable_states(rules)
    assert header.count == int(where.sum())
    back = decode(data, rules)
    assert np.abs(back - solver.table)[where].max() <= HALF_STEP * (1 + 1e-9)
    assert not back[~where].any()
    with pytest.raises(CorruptTable, match="other rules"):
        decode(data, RuleSet.official())


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
