"""Win chances and winning play from what ships with the package (until the score-curve
tables are built).

Each player's final total is taken as normal: the mean is the total so far plus the
expected points still to come (the expected-value table, shipped), the variance that of
the points still to come under expected-value play (a second table, shipped beside it:
``solver/data/<rules>.variance.npz``, made by ``scripts/make_shipped_tables.py``, see
`interim_kernel`).

* `estimate_chances` and `estimate_beat`: the meter's estimate, good to
  `ESTIMATE_MARGIN` (``tests/solver/test_interim.py`` compares it with the exact
  meter on late-game cards); in the last rounds (at most `LATE_OPEN_BOXES` boxes
  open) a card's distribution is worked out exactly instead, once the curve kernels are
  compiled, and the margin is `LATE_MARGIN`;
* `interim_options`: every option of a turn valued by the chance to finish ahead of
  the best rival (`INTERIM_METHOD`), what the ``winning`` bot plays by until its
  tables are there.
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import RuleSet, Scorecard, Situation
from ..core.language import N_
from .child import python_child
from .compiling import CHILD_ENV, TIMEOUT_S
from .planner import state_of
from .shipped import DATA
from .solver import cached_solver, table_shape
from .tables import card_shape, reach_table

F64 = npt.NDArray[np.float64]

ESTIMATE_MARGIN = 0.45
"""How far an estimated chance may be from the exact one (a share of 1), at worst: late
in a game a final total is far from normal (a Yahtzee box still open is 0 or 50): on
late-game cards the worst of 350 estimates was off by 0.42, one in twenty by over 0.25
(``tests/solver/test_interim.py``)."""
LATE_OPEN_BOXES = 3
"""Cards with at most this many boxes open get their exact distribution (when the curve
kernels are compiled): the chances are then those of the exact meter but for the
16-bit levels of its table."""
LATE_KEPT = 4096
"""Late states whose distribution of the points to come is kept (a few kB each; the least
recently used go)."""
LATE_MARGIN = 0.001
"""The margin of chances worked out from exact distributions only."""
TYPICAL_ERROR = 0.08
"""The mean distance of an estimated chance from the exact one on late-game cards (about
0.055 measured; ``tests/solver/test_interim.py``)."""
INTERIM_METHOD = N_("normal approximation (shipped tables)")
"""How the ``winning`` bot plays before its tables are built, as records and reviews
say it (in English: a face shows it with ``_``)."""
EXACT_METHOD = N_("score-curve tables")
"""How the ``winning`` bot plays once its tables are there."""
EV_METHOD = N_("expected points (nothing to play to win by yet)")
"""How it plays where neither is at hand (rules with no shipped variance table, or the
first seconds after an install while the interim kernels are compiled)."""
ROUNDING_VARIANCE = 1.0 / 12.0
"""The variance a total's rounding to whole points adds (uniform over a point)."""
SURE = 1e-9
"""A variance this small is none: the total is known."""
DRIFT = 1e-6
"""The most the means found while building the variance may differ from the table's."""
_SCALE = 100.0  # the shipped standard deviations are in hundredths of a point
_VARIANCES: dict[str, F64 | None] = {}
_LATE: OrderedDict[tuple[str, tuple[int, int, int]], F64] = OrderedDict()
_NORMAL: OrderedDict[tuple[str, tuple[int, int, int]], tuple[F64, int]] = OrderedDict()
"""Per state, the normal distribution of the points still to come, from ``low`` (below
0: the normal's tail, as `normal_pmf` keeps it): the last `LATE_KEPT` states."""
_COMPILED = False
_COMPILING: list[bool] = []
_GUARD = threading.Lock()


def variance_path(rules: RuleSet) -> Path:
    """Where the variance table of ``rules`` ships (it may not)."""
    return DATA / f"{rules.name}.variance.npz"


def build_variance(rules: RuleSet, base_mask: int = 0) -> F64:
    """The variance of the points still to come from every turn-start state under
    expected-value play (flat, as the expected-value table flattened); only the states
    whose filled boxes include ``base_mask`` (the others stay 0)."""
    from . import interim_kernel as k  # noqa: PLC0415 - numba loads only to build
    from .tables import model  # noqa: PLC0415

    m, shape = model(rules), card_shape(rules)
    reach = reach_table(shape.n_boxes)
    E = np.ascontiguousarray(cached_solver(rules).table).reshape(-1)
    D = np.zeros(E.shape)
    for layer in range(shape.n_boxes - 1, -1, -1):
        masks = shape.masks(layer).astype(np.int64)
        chosen = masks[(masks & base_mask) == base_mask]
        check = np.zeros(len(chosen))
        k.moment_layer(chosen, reach, E, D, m, check)
        if len(check) and check.max() > DRIFT:
            raise AssertionError(f"the means drift from the table by {check.max():.2g}")
    return D


def encode_variance(D: F64, rules: RuleSet | None = None) -> bytes:
    """The shipped form: standard deviations in hundredths of a point, compressed (the
    table of ``rules``, the official rules' by default)."""
    shape = table_shape(rules or RuleSet.official())
    sd = np.rint(np.sqrt(np.maximum(D, 0.0)) * _SCALE).astype(np.uint16).reshape(shape)
    out = io.BytesIO()
    np.savez_compressed(out, sd=sd)
    return out.getvalue()


def shipped_variance(rules: RuleSet) -> F64 | None:
    """The shipped variance table of ``rules`` (flat), or None when none ships."""
    key = rules.name
    with _GUARD:
        if key not in _VARIANCES:
            path = DATA / f"{rules.name}.variance.npz"
            found = None
            if rules.scoring_key == RuleSet.named(rules.name).scoring_key and path.is_file():
                with np.load(path) as data:
                    sd = data["sd"].astype(np.float64) / _SCALE
                found = (sd * sd).reshape(-1)
            _VARIANCES[key] = found
        return _VARIANCES[key]


def can_estimate(rules: RuleSet) -> bool:
    """Whether the interim meter and bot have their tables for these rules."""
    return shipped_variance(rules) is not None


def final_normal(card: Scorecard, rules: RuleSet) -> tuple[float, float]:
    """The mean and variance of ``card``'s final total (expected-value play from here)."""
    if card.is_complete:
        return float(card.total), 0.0
    mean, var = _to_come(card, rules)
    return card.total + mean, var


def _to_come(card: Scorecard, rules: RuleSet) -> tuple[float, float]:
    """The mean and variance of the points still to come on an unfinished card."""
    D = shipped_variance(rules)
    assert D is not None, "no variance table ships for these rules"
    mask, yf, u = state_of(card)
    mean = float(cached_solver(rules).table[mask, yf, u])
    return mean, float(D.reshape(table_shape(rules))[mask, yf, u])


def final_normal_pmf(card: Scorecard, rules: RuleSet) -> F64:
    """``normal_pmf(*final_normal(card, rules))`` (to 1e-15): for an unfinished card from
    its state's distribution of the points to come, kept (cards in the same state share
    it, whatever their totals): about a tenth of the cost when it is."""
    if card.is_complete:
        return normal_pmf(float(card.total), 0.0)
    key = (rules.scoring_key, state_of(card))
    with _GUARD:
        kept = _NORMAL.get(key)
        if kept is not None:
            _NORMAL.move_to_end(key)
    if kept is None:
        mean, var = _to_come(card, rules)
        low, high = -(int(8.0 * math.sqrt(var)) + 2), int(mean + 8.0 * math.sqrt(var)) + 2
        edges = np.arange(low, high + 1, dtype=np.float64) + 0.5  # as normal_pmf's
        kept = np.diff(np.concatenate(([0.0], _normal_cdf(edges, mean, var)))), low
        with _GUARD:
            _NORMAL[key] = kept
            while len(_NORMAL) > LATE_KEPT:
                _NORMAL.popitem(last=False)
    to_come, low = kept
    start = card.total + low  # where the first point of the tail falls
    if start >= 0:
        return np.concatenate((np.zeros(start), to_come))
    return np.concatenate(([to_come[: 1 - start].sum()], to_come[1 - start :]))  # below 0


_ERF_STEP = 1.0 / 1024
_ERF_AT = np.arange(-6.0, 6.0 + _ERF_STEP / 2, _ERF_STEP)
_ERF = np.array([math.erf(z) for z in _ERF_AT.tolist()])
"""erf on a grid (beyond +-6 it is +-1 to 1e-17), read by linear interpolation: within
2e-7 of `math.erf` (``tests/solver/test_interim.py``), a twentieth of its cost on the
~600 points of a card's distribution."""


def _normal_cdf(x: F64, mean: float, var: float) -> F64:
    if var <= SURE:
        return (x >= mean).astype(np.float64)
    z = (x - mean) / math.sqrt(2.0 * var)
    erf: F64 = np.interp(z, _ERF_AT, _ERF)
    return 0.5 * (1.0 + erf)


def normal_pmf(mean: float, var: float) -> F64:
    """``P(final = t)`` for whole totals ``t`` from 0, the normal rounded to whole points."""
    top = int(mean + 8.0 * math.sqrt(var)) + 2
    edges = np.arange(top + 1, dtype=np.float64) + 0.5
    cdf = _normal_cdf(edges, mean, var)
    return np.diff(np.concatenate(([0.0], cdf)))


def late_pmf(card: Scorecard, rules: RuleSet) -> F64 | None:
    """The exact distribution of ``card``'s final total under expected-value play when
    it is quick to work out: at most `LATE_OPEN_BOXES` boxes open and the curve
    kernels already compiled (25-110 ms a state; the points still to come of the last
    `LATE_KEPT` states are kept: cards in the same state, whatever their totals, share
    them); else None."""
    if card.is_complete:
        pmf = np.zeros(card.total + 1)
        pmf[-1] = 1.0
        return pmf
    if card.open_count > LATE_OPEN_BOXES:
        return None
    from .compiling import cached  # noqa: PLC0415
    from .distribution import exact_distribution  # noqa: PLC0415

    if not cached("curves"):
        return None
    key = (rules.scoring_key, state_of(card))
    with _GUARD:
        kept = _LATE.get(key)
        if kept is not None:
            _LATE.move_to_end(key)
            return np.concatenate((np.zeros(card.total), kept))
    found = exact_distribution(rules, card, cached_solver(rules).table).pmf
    with _GUARD:
        _LATE[key] = found[card.total :]
        while len(_LATE) > LATE_KEPT:
            _LATE.popitem(last=False)
    return found


def late_pending(card: Scorecard, rules: RuleSet) -> bool:
    """Whether `late_pmf` would work ``card``'s distribution out now (tens of
    milliseconds) rather than answer at once."""
    from .compiling import cached  # noqa: PLC0415

    if card.is_complete or card.open_count > LATE_OPEN_BOXES or not cached("curves"):
        return False
    with _GUARD:
        return (rules.scoring_key, state_of(card)) not in _LATE


def estimate_pmfs(
    cards: Sequence[Scorecard], rules: RuleSet, *, exact_late: bool = True
) -> tuple[list[F64], float]:
    """Each card's estimated final distribution, and the margin of chances worked out
    from them: `LATE_MARGIN` when every card's is exact (late in a game), else
    `ESTIMATE_MARGIN` (``exact_late=False``: the normal approximation only)."""
    pmfs, margin = [], LATE_MARGIN
    for card in cards:
        pmf = late_pmf(card, rules) if exact_late else None
        if pmf is None:
            pmf, margin = final_normal_pmf(card, rules), ESTIMATE_MARGIN
        pmfs.append(pmf)
    return pmfs, margin


def chances_of(pmfs: Sequence[F64]) -> list[float]:
    """Each player's chance to finish first, from the distributions of their final
    totals (``pmf[t]`` = P(final = t); independent; a tie of k players gives each 1/k)."""
    cards = pmfs
    size = max(len(p) for p in pmfs)
    grid = np.zeros((len(cards), size))
    for i, p in enumerate(pmfs):
        grid[i, : len(p)] = p
    below = np.cumsum(grid, axis=1) - grid  # P(F_j < x)
    rivals = len(cards) - 1
    if rivals == 1:  # the usual table: a tenth of the general way's cost
        first = float(np.dot(grid[0], below[1] + 0.5 * grid[1]))
        return [first, float(np.dot(grid[1], below[0] + 0.5 * grid[0]))]
    chances = []
    for i in range(len(cards)):
        # polynomial in z over the others: P(below x) + P(at x) z; a tie with k others
        # shares the win k + 1 ways
        poly = np.zeros((size, len(cards)))
        poly[:, 0] = 1.0
        for j in range(len(cards)):
            if j == i:
                continue
            shifted = np.zeros_like(poly)
            shifted[:, 1:] = poly[:, :-1] * grid[j][:, None]
            poly = poly * below[j][:, None] + shifted
        share = poly @ (1.0 / np.arange(1, len(cards) + 1))
        chances.append(float(np.dot(grid[i], share)))
    return chances


def estimate_chances(
    cards: Sequence[Scorecard], rules: RuleSet, *, exact_late: bool = True
) -> tuple[list[float], float]:
    """Each player's estimated chance to finish first (ties shared) and its margin: how
    far each may be from what `winning.win_chances` says (see
    `estimate_pmfs`)."""
    if len(cards) == 2 and not any(  # noqa: PLR2004 - the usual table, worked out apart
        late_pmf(card, rules) is not None for card in cards if exact_late
    ):
        return _normal_pair(cards[0], cards[1], rules), ESTIMATE_MARGIN
    pmfs, margin = estimate_pmfs(cards, rules, exact_late=exact_late)
    return chances_of(pmfs), margin


def _normal_pair(a: Scorecard, b: Scorecard, rules: RuleSet) -> list[float]:
    """Two players' chances when both final totals are taken as normal: the chance
    that the normal difference ``A - B`` is above 0, its variance widened by the
    rounding of each total to whole points (1/12 each), ties shared (a microsecond;
    within 0.01 of `chances_of` on the two rounded distributions, far inside
    `ESTIMATE_MARGIN`: ``tests/solver/test_interim.py``)."""
    (mean_a, var_a), (mean_b, var_b) = final_normal(a, rules), final_normal(b, rules)
    if var_a + var_b <= SURE:  # both totals known
        ahead = round(mean_a - mean_b)
        first = 1.0 if ahead > 0 else 0.0 if ahead < 0 else 0.5
    else:
        var = var_a + var_b + 2 * ROUNDING_VARIANCE
        first = 0.5 * (1.0 + math.erf((mean_a - mean_b) / math.sqrt(2.0 * var)))
    return [first, 1.0 - first]


def estimate_beat(
    card: Scorecard, score: int, rules: RuleSet, *, exact_late: bool = True
) -> tuple[float, float]:
    """The estimated chance to finish above ``score`` and its margin (see
    `winning.beat_chance`)."""
    (pmf,), margin = estimate_pmfs([card], rules, exact_late=exact_late)
    return (float(pmf[score + 1 :].sum()) if score + 1 < len(pmf) else 0.0), margin


def kernels_ready() -> bool:
    """Whether the interim bot's compiled kernels are at hand (in numba's cache, or
    compiled in this process); if not, they are compiled in a child process in the
    background, once (10-30 s the first time after an install), and meanwhile the
    ``winning`` bot plays for expected points. Never waits."""
    global _COMPILED  # noqa: PLW0603 - one flag for the process
    if _COMPILED:
        return True
    from . import interim_kernel as k  # noqa: PLC0415
    from . import win_kernel as w  # noqa: PLC0415

    try:
        kernels: tuple[Any, ...] = (k.normal_turn, k.rival_normal, w.value_options)
        found = all(Path(d._cache._cache_file._index_path).is_file() for d in kernels)
    except AttributeError:  # another numba: compile in place
        found = True
    if found or os.environ.get(CHILD_ENV):
        _COMPILED = True
        return True
    with _GUARD:
        if _COMPILING:
            return False
        _COMPILING.append(True)
    threading.Thread(target=_compile_aside, daemon=True).start()
    return False


def _compile_aside() -> None:
    global _COMPILED  # noqa: PLW0603
    code = "from yahtzee.solver.interim import compile_interim; compile_interim()"
    try:
        done = subprocess.run(
            python_child(code),
            env={**os.environ, CHILD_ENV: "1"},
            capture_output=True,
            timeout=TIMEOUT_S,
            check=False,
        )
        _COMPILED = done.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        _COMPILED = False
    if not _COMPILED:  # compile in place on the next decision, as numba would
        _COMPILED = True


def compile_interim() -> None:
    """Compile the interim bot's kernels (a turn of an empty card against another)."""
    from ..core import Dice  # noqa: PLC0415

    rules = RuleSet.official()
    situation = Situation(Dice((1, 2, 3, 4, 5)), 2, Scorecard.empty())
    interim_options(situation, [Scorecard.empty()], rules)


def interim_options(
    situation: Situation, rivals: Sequence[Scorecard], rules: RuleSet
) -> tuple[list[int], list[float]]:
    """Every option's code and its estimated chance to finish ahead of the best rival
    (`INTERIM_METHOD`), listed as the expected-value advice lists them."""
    from . import interim_kernel as k  # noqa: PLC0415 - numba loads with the first call
    from . import win_kernel as w  # noqa: PLC0415
    from .layout import MAX_CANDIDATES, MAX_OPTIONS, N_MS, N_ROWS  # noqa: PLC0415
    from .tables import model  # noqa: PLC0415

    D = shipped_variance(rules)
    assert D is not None, "no variance table ships for these rules"
    E = np.ascontiguousarray(cached_solver(rules).table).reshape(-1)
    m = model(rules)
    cards = [situation.card, *rivals]
    states = [state_of(c) for c in cards]
    masks, yfs, us = (np.array([s[i] for s in states], dtype=np.int64) for i in range(3))
    totals = np.array([c.total for c in cards], dtype=np.int64)
    mu, var = k.rival_normal(0, len(cards), masks, yfs, us, totals, E, D, m)
    mask, yf, u = states[0]
    Q = np.empty((N_ROWS, w.MOST_ADD))
    K1, K2 = np.empty(N_MS), np.empty(N_MS)
    succ, gain = np.empty(N_ROWS, dtype=np.int64), np.empty(N_ROWS, dtype=np.int64)
    rows, cats = np.empty(MAX_CANDIDATES, dtype=np.int64), np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    k.normal_turn(mask, yf, u, situation.card.total, mu, var, E, D, m, succ, gain, Q, K1, K2,
                  rows, adds, cats)  # fmt: skip
    codes, values = np.empty(MAX_OPTIONS, dtype=np.int64), np.empty(MAX_OPTIONS)
    count = w.value_options(mask, yf, situation.dice.index, situation.rolls_left, m, Q, K1, K2,
                            rows, adds, cats, codes, values)  # fmt: skip
    return codes[:count].tolist(), values[:count].tolist()


__all__ = [
    "ESTIMATE_MARGIN",
    "EV_METHOD",
    "EXACT_METHOD",
    "INTERIM_METHOD",
    "LATE_MARGIN",
    "LATE_OPEN_BOXES",
    "TYPICAL_ERROR",
    "build_variance",
    "can_estimate",
    "chances_of",
    "encode_variance",
    "estimate_beat",
    "estimate_chances",
    "estimate_pmfs",
    "final_normal",
    "final_normal_pmf",
    "interim_options",
    "late_pending",
    "late_pmf",
    "shipped_variance",
]
