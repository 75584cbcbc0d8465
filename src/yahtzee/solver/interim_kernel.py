"""Compiled kernels of the interim ``winning`` play (numba): what needs only what ships.

Until the score-curve tables are built, a player's final total is taken as normal, with
the mean from the expected-value table ``E`` (points still to come under expected-value
play) and the variance from a second table ``D`` of the same shape, the variance of the
points still to come under that same play (shipped in ``solver/data``, built by
`moment_layer`).

* `moment_layer` builds ``D`` layer by layer, as the expected-value table is built:
  a placement leading to next state ``s'`` with ``g`` points this turn has the leaf
  ``L = g + E[s']``; under expected-value play ``Var = E_pi[L^2 + D[s']] - E[s]^2``.
  ``E_pi`` is read off the same turn solved on the leaves ``L + eps (L^2 + D[s'])``
  (to first order in ``eps`` the turn's value moves by ``eps E_pi[...]``, and the
  choices stay the expected-value ones but for ties closer than ``eps`` times a square);
* `normal_turn` solves one turn for the chance to beat a rival whose final total
  is normal with mean ``mu`` and variance ``var``: a leaf is
  ``Phi((T + g + E[s'] - mu) / sqrt(D[s'] + var))`` (ties count half);
* `rival_normal` is the best of the other players' final totals, each normal and
  independent, as one normal of the same mean and variance;
* `match_kernel.simulate_match` plays the interim ``winning`` seat(s) by these.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from .curves import state_index, successors
from .kernel import candidates, jit, jit_parallel
from .layout import (
    MAX_CANDIDATES,
    N_MS,
    N_ROWS,
    NEG,
)
from .policy import (
    _keep_means,
    _sub_maxes,
)
from .tables import N_ROLLS, ROLL_BASE

EPS = 1e-9
"""The weight of the second moment beside the expected points in `moment_turn`."""
POINT_WORTH = 1e-5
"""What an expected point is worth beside the chance to win (a share of 1) in
`normal_turn`: where the estimate sees the game as settled, play for points."""
INTERIM = -2  # a seat's kind: this, WINNING, or the index of the table it plays by
GRID = 2400  # above any final total of any rule set, for `rival_normal`


@jit
def _turn_start(A, packed):
    """From ``A[ROLL_BASE + r]`` (standing on roll ``r``): ``A[0]``, the turn start."""
    _keep_means(A, packed)
    _sub_maxes(A, packed)
    _keep_means(A, packed)
    _sub_maxes(A, packed)
    _keep_means(A, packed)


@jit
def moment_turn(mask, yf, u, E, D, m, succ, gain, A, rows, adds, cats):
    """``(mean, variance)`` of the points still to come from one state under
    expected-value play (``E`` and ``D`` flat, filled for the next states)."""
    successors(mask, yf, u, m, succ, gain)
    for r in range(N_ROLLS):
        count = candidates(mask, yf, r, m, rows, adds, cats)
        best = NEG
        for i in range(count):
            nxt = succ[rows[i]]
            leaf = gain[rows[i]] + adds[i] + E[nxt]
            best = max(best, leaf + EPS * (leaf * leaf + D[nxt]))
        A[ROLL_BASE + r] = best
    _turn_start(A, m.packed)
    mean = E[state_index(mask, yf, u, m)]
    second = (A[0] - mean) / EPS
    return mean, max(second - mean * mean, 0.0)


@jit_parallel
def moment_layer(masks, reach, E, D, m, check):
    """Fill ``D`` (flat) for every state of these masks (one layer); ``check[i]``
    receives the largest gap between the mean found and ``E`` (a few ``eps``)."""
    for i in prange(masks.shape[0]):
        mask = masks[i]
        succ = np.empty(N_ROWS, dtype=np.int64)
        gain = np.empty(N_ROWS, dtype=np.int64)
        A = np.empty(N_MS)
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        gap = 0.0
        for yf in range(2 if m.yahtzee_box >= 0 and mask >> m.yahtzee_box & 1 else 1):
            for u in range(min(reach[mask], m.cap) + 1):
                mean, var = moment_turn(mask, yf, u, E, D, m, succ, gain, A, rows, adds, cats)
                D[state_index(mask, yf, u, m)] = var
                gap = max(gap, abs((A[0] - EPS * (var + mean * mean)) - mean))
        check[i] = gap


@jit
def beat(diff, var):
    """The chance that a normal difference of mean ``diff`` and variance ``var`` is
    above zero, a tie (``var`` 0 and ``diff`` 0) counted half."""
    if var <= 1e-9:
        return 1.0 if diff > 0.0 else (0.5 if diff == 0.0 else 0.0)
    return 0.5 * math.erfc(-diff / math.sqrt(2.0 * var))


@jit
def normal_turn(mask, yf, u, total, mu, var, E, D, m, succ, gain, Q, K1, K2, rows, adds, cats):
    """Solve one state's turn for the chance to beat ``N(mu, var)``: ``Q[row, a]`` (leaf
    values, -1 where not needed), ``K1`` and ``K2`` as `win_kernel.value_turn`."""
    successors(mask, yf, u, m, succ, gain)
    Q[:, :] = -1.0
    for r in range(N_ROLLS):
        count = candidates(mask, yf, r, m, rows, adds, cats)
        best = NEG
        for i in range(count):
            row, a = rows[i], int(adds[i])
            v = Q[row, a]
            if v < 0.0:
                nxt = succ[row]
                points = gain[row] + a + E[nxt]
                v = beat(total + points - mu, D[nxt] + var) + POINT_WORTH * points
                Q[row, a] = v
            best = max(best, v)
        K1[ROLL_BASE + r] = best
    _keep_means(K1, m.packed)
    K2[:] = K1
    _sub_maxes(K2, m.packed)
    _keep_means(K2, m.packed)


@jit
def rival_normal(me, n, masks, yfs, us, totals, E, D, m):
    """``(mean, variance)`` of the best of the others' final totals, each normal (a
    full card of model ``m``: its total), found on a grid of whole points."""
    full_mask = (1 << m.n_boxes) - 1
    count = 0
    only = -1
    for j in range(n):
        if j != me:
            count += 1
            only = j
    if count == 1:
        idx = state_index(masks[only], yfs[only], us[only], m)
        full = masks[only] == full_mask
        return totals[only] + (0.0 if full else E[idx]), 0.0 if full else D[idx]
    s1 = s2 = prev = 0.0
    for x in range(GRID):
        cdf = 1.0
        for j in range(n):
            if j == me:
                continue
            if masks[j] == full_mask:
                cdf *= 1.0 if x >= totals[j] else 0.0
                continue
            idx = state_index(masks[j], yfs[j], us[j], m)
            mean, sd = totals[j] + E[idx], math.sqrt(D[idx]) + 1e-9
            cdf *= 0.5 * math.erfc(-(x + 0.5 - mean) / (sd * math.sqrt(2.0)))
        p = cdf - prev
        prev = cdf
        s1 += p * x
        s2 += p * x * x
    return s1, max(s2 - s1 * s1, 0.0)
