"""Compiled kernels of the score curves (numba): per turn-start state, a vector over the
points still to come, in place of the expected-value solver's single number.

* ``SURVIVAL`` curves: ``S(n)`` = the highest chance of scoring at least ``n`` more
  points (the best play for that very target). Inside a turn the recursion is the
  expected-value one with a vector per keep: a placement shifts its next state's curve by
  the points it gains, keeps average over the next die, choices take the elementwise max.
* ``PMF`` curves: ``P(n)`` = the chance of scoring exactly ``n`` more points under the
  expected-value-optimal play (the bots' choices, ties included). The turn is walked
  forward once to get the chance of ending it in each box with each score; the curve is
  then the mix of the next states' curves, shifted by the points.

A curve is stored as a band of float values ``[lo, hi]`` per state in one flat array:
outside the band a survival curve is 1 below and 0 above, a pmf is 0. States are indexed
``(mask * 2 + yf) * 64 + u`` as in the solver's table.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..core import FACE_COUNT
from .kernel import box_rows, candidates, jit, jit_inline, jit_parallel, next_state, sub_maxes
from .layout import (
    KEEP_CODE,
    MAX_CANDIDATES,
    MAX_OPTIONS,
    N_MS,
    N_ROWS,
    ROW_DEAD,
)
from .policy import pick, solve_turn, turn_options
from .tables import N_BOXES, N_ROLLS, ROLL_BASE, UPPER_CAP

SURVIVAL = 0
PMF = 1
SUBTOTALS = UPPER_CAP + 1
TILE = 128  # points per pass inside a turn: a tile of every keep fits the core's cache


@jit_inline
def state_index(mask, yf, u):
    return (mask * 2 + yf) * SUBTOTALS + u


@jit_inline
def curve_at(kind, values, start, lo, hi, idx, n):
    """The curve of state ``idx`` at ``n`` points (see the module's notes on bands)."""
    if n < lo[idx]:
        return 1.0 if kind == SURVIVAL else 0.0
    if n > hi[idx]:
        return 0.0
    return values[start[idx] + n - lo[idx]]


@jit
def successors(mask, yf, u, m, succ, gain):
    """Per row of the turn's table (see :mod:`.layout`): the next state's index and the
    points a placement on it gains before the per-roll points (upper boxes: all of them,
    the upper bonus included). Rows of filled boxes get -1."""
    for j in range(N_ROWS):
        succ[j] = -1
        gain[j] = 0
    for c in range(N_BOXES):
        if mask >> c & 1:
            continue
        for k in range(box_rows(c)):
            row, nm, nyf, nu, g = next_state(mask, yf, u, c, k, m.cap, int(m.upper_bonus))
            succ[row] = state_index(nm, nyf, nu)
            gain[row] = g


@jit
def _keep_means(A, n, add):
    """:func:`.kernel.keep_means` in the arrays' own precision (float32 stays float32)."""
    sixth = A.dtype.type(1.0 / FACE_COUNT)
    for k in range(ROLL_BASE - 1, -1, -1):
        c0, c1, c2, c3, c4, c5 = add[k, 0], add[k, 1], add[k, 2], add[k, 3], add[k, 4], add[k, 5]
        a0, a1, a2, a3, a4, a5, out = A[c0], A[c1], A[c2], A[c3], A[c4], A[c5], A[k]
        for lane in range(n):
            out[lane] = (a0[lane] + a1[lane] + a2[lane] + a3[lane] + a4[lane] + a5[lane]) * sixth


@jit
def _fill_survival(row, idx, g, pad, width, values, start, lo, hi):
    """``row[pad + x]`` = the survival curve of state ``idx`` at ``x - g``, for
    ``x`` from ``-pad`` to ``width - 1``."""
    a, b, s = lo[idx], hi[idx], start[idx]
    for i in range(pad + width):
        n = i - pad - g
        if n < a:
            row[i] = 1.0
        elif n > b:
            row[i] = 0.0
        else:
            row[i] = values[s + n - a]


@jit
def survival_turn(mask, yf, u, width, m, pad, values, start, lo, hi, F, A, crow, cadd, ccount,
                  succ, gain, rows, adds, cats, tmp, out):  # fmt: skip
    """``out[:width]``: the survival curve of one state, from its next states' curves."""
    successors(mask, yf, u, m, succ, gain)
    for j in range(N_ROWS):
        if succ[j] >= 0:
            _fill_survival(F[j], succ[j], gain[j], pad, width, values, start, lo, hi)
    for r in range(N_ROLLS):
        count = candidates(mask, yf, r, m, rows, adds, cats)
        ccount[r] = count
        for i in range(count):
            crow[r, i] = rows[i]
            cadd[r, i] = int(adds[i])
    for t0 in range(0, width, TILE):
        nb = min(TILE, width - t0)
        for r in range(N_ROLLS):
            dst = A[ROLL_BASE + r]
            src = F[crow[r, 0]]
            o = pad + t0 - cadd[r, 0]
            for lane in range(nb):
                dst[lane] = src[o + lane]
            for i in range(1, ccount[r]):
                src = F[crow[r, i]]
                o = pad + t0 - cadd[r, i]
                for lane in range(nb):
                    v = src[o + lane]
                    dst[lane] = max(dst[lane], v)
        _keep_means(A, nb, m.add)
        sub_maxes(A, nb, m.remove, tmp)
        _keep_means(A, nb, m.add)
        sub_maxes(A, nb, m.remove, tmp)
        _keep_means(A, nb, m.add)
        for lane in range(nb):
            out[t0 + lane] = A[0, lane]


@jit_parallel
def survival_layer(states, widths, m, pad, values, start, lo, hi, out):
    """``out[i, :widths[i]]``: the survival curve of each state ``(mask, yf, u)``."""
    for i in prange(states.shape[0]):
        width = widths[i]
        F = np.empty((N_ROWS, pad + width), dtype=out.dtype)
        F[ROW_DEAD, :] = 0.0
        A = np.empty((N_MS, TILE), dtype=out.dtype)
        crow = np.empty((N_ROLLS, MAX_CANDIDATES), dtype=np.int64)
        cadd = np.empty((N_ROLLS, MAX_CANDIDATES), dtype=np.int64)
        ccount = np.empty(N_ROLLS, dtype=np.int64)
        succ = np.empty(N_ROWS, dtype=np.int64)
        gain = np.empty(N_ROWS, dtype=np.int64)
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        tmp = np.empty(TILE, dtype=out.dtype)
        survival_turn(states[i, 0], states[i, 1], states[i, 2], width, m, pad, values, start,
                      lo, hi, F, A, crow, cadd, ccount, succ, gain, rows, adds, cats, tmp,
                      out[i])  # fmt: skip


@jit
def turn_outcomes(mask, yf, u, E, m, probability, R, K1, K2, codes, option_values, mass, keeps,
                  rows, adds, cats, landed):  # fmt: skip
    """``landed[row, a]``: the chance that the turn, played by the expected-value policy
    (ties to the first option, as the bots play), ends on that row of the turn's table
    with ``a`` points added on top of the row's own gain."""
    solve_turn(mask, yf, u, E, m.packed, m.joker, m.joker_bonus, m.cap, m.upper_bonus, R, K1, K2)
    landed[:, :] = 0.0
    for r in range(N_ROLLS):
        mass[r] = probability[r]
    for rolls_left in range(2, -1, -1):
        keeps[:] = 0.0
        for r in range(N_ROLLS):
            w = mass[r]
            if w == 0.0:
                continue
            count = turn_options(mask, yf, r, rolls_left, m.packed, m.joker, m.joker_bonus, R,
                                 K1, K2, codes, option_values)  # fmt: skip
            code = codes[pick(option_values, count, 0.0)]
            if code >= KEEP_CODE:
                keeps[code - KEEP_CODE] += w
                continue
            n = candidates(mask, yf, r, m, rows, adds, cats)
            for i in range(n):
                if cats[i] == code:
                    landed[rows[i], int(adds[i])] += w
        if rolls_left == 0:
            break
        for k in range(ROLL_BASE):
            w = keeps[k]
            if w == 0.0:
                continue
            share = w / FACE_COUNT
            for f in range(FACE_COUNT):
                keeps[m.add[k, f]] += share
        for r in range(N_ROLLS):
            mass[r] = keeps[ROLL_BASE + r]


@jit
def pmf_turn(mask, yf, u, width, E, m, probability, values, start, lo, hi, R, K1, K2, codes,
             option_values, mass, keeps, rows, adds, cats, landed, succ, gain, out):  # fmt: skip
    """``out[:width]``: the distribution of the points still to come from one state under
    the expected-value policy, from the next states' survival curves (points from
    ``width`` on are left out)."""
    turn_outcomes(mask, yf, u, E, m, probability, R, K1, K2, codes, option_values, mass, keeps,
                  rows, adds, cats, landed)  # fmt: skip
    successors(mask, yf, u, m, succ, gain)
    for t in range(width):
        out[t] = 0.0
    for j in range(N_ROWS):
        idx = succ[j]
        if idx < 0:
            continue
        a, b, s = lo[idx], hi[idx], start[idx]
        for extra in range(landed.shape[1]):
            w = landed[j, extra]
            if w == 0.0:
                continue
            shift = gain[j] + extra
            top = min(b, width - 1 - shift)
            if a - 1 + shift < width:  # P(n = a - 1) = 1 - S(a)
                out[a - 1 + shift] += w * (1.0 - (values[s] if a <= b else 0.0))
            for n in range(a, top + 1):
                after = values[s + n + 1 - a] if n < b else 0.0
                out[n + shift] += w * (values[s + n - a] - after)


@jit_parallel
def pmf_layer(states, widths, E, m, probability, max_add, values, start, lo, hi, out):
    """``out[i, :widths[i]]``: the distribution of each state ``(mask, yf, u)``."""
    for i in prange(states.shape[0]):
        R = np.empty(N_ROWS)
        K1 = np.empty(N_MS)
        K2 = np.empty(N_MS)
        codes = np.empty(MAX_OPTIONS, dtype=np.int64)
        option_values = np.empty(MAX_OPTIONS)
        mass = np.empty(N_ROLLS)
        keeps = np.empty(N_MS)
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        landed = np.empty((N_ROWS, max_add + 1))
        succ = np.empty(N_ROWS, dtype=np.int64)
        gain = np.empty(N_ROWS, dtype=np.int64)
        pmf_turn(states[i, 0], states[i, 1], states[i, 2], widths[i], E, m, probability, values,
                 start, lo, hi, R, K1, K2, codes, option_values, mass, keeps, rows, adds, cats,
                 landed, succ, gain, out[i])  # fmt: skip
