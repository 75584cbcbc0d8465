"""Compiled kernels of target and winning play (numba).

A turn is solved as the expected-value turn is, on one lane, with other leaf values: a
placement that leads to next state ``s'`` with a total of ``T'`` is worth

    sum over x of w[x] * S(s', x - T')

where ``S`` is the state's target curve (the best chance of at least ``n`` more points)
and ``w`` weighs the totals to reach: a single target (``w`` = 1 at the target), or the
best of the opponents' final totals (the ``winning`` strategy, ties counted half). The
sum is read from a band of the curve and the prefix sums ``C`` of ``w``.
"""

from __future__ import annotations

from .curves import state_index, successors
from .kernel import candidates, jit
from .layout import (
    NEG,
    PACK_SUB_KEEPS,
)
from .policy import (
    _keep_means,
    _sub_maxes,
    keep_options,
)
from .tables import MAX_SUB_KEEPS, N_ROLLS, ROLL_BASE

LEVELS = 65535.0
WINNING = -1  # a seat's kind: this, or the index of the table it plays by
MOST_TOTAL = 2100  # above any final total of any rule set
MOST_ADD = 256  # above the most points one placement adds on top of its row's gain


@jit
def curve_dot(levels, start, lo, hi, idx, shift, w, C, xmax):
    """``sum over 0 <= x < xmax of w[x] * S(idx, x - shift)``."""
    a, b, s = lo[idx], hi[idx], start[idx]
    k = min(max(a + shift, 0), xmax)
    total = C[k]
    x0 = max(a + shift, 0)
    x1 = min(b + shift, xmax - 1)
    acc = 0.0
    base = s - shift - a
    for x in range(x0, x1 + 1):
        acc += w[x] * levels[base + x]
    return total + acc / LEVELS


@jit
def value_turn(mask, yf, u, total, w, C, xmax, levels, start, lo, hi, m, succ, gain, Q, K1, K2,
               rows, adds, cats):  # fmt: skip
    """Solve one state's turn against the weights: ``Q[row, a]`` (leaf values, -1 where
    not needed), ``K1`` and ``K2`` (keep values with one and two rolls left)."""
    successors(mask, yf, u, m, succ, gain)
    Q[:, :] = -1.0
    A = K1
    for r in range(N_ROLLS):
        count = candidates(mask, yf, r, m, rows, adds, cats)
        best = NEG
        for i in range(count):
            row, a = rows[i], int(adds[i])
            v = Q[row, a]
            if v < 0.0:
                v = curve_dot(levels, start, lo, hi, succ[row], total + gain[row] + a, w, C, xmax)
                Q[row, a] = v
            best = max(best, v)
        A[ROLL_BASE + r] = best
    _keep_means(K1, m.packed)
    K2[:] = K1
    _sub_maxes(K2, m.packed)
    _keep_means(K2, m.packed)


@jit
def value_options(mask, yf, r, rolls_left, m, Q, K1, K2, rows, adds, cats, codes, values):
    """Every distinct option for roll ``r`` and its value, listed as
    `policy.turn_options` lists them. Returns how many."""
    count = candidates(mask, yf, r, m, rows, adds, cats)
    for i in range(count):
        codes[i] = cats[i]
        values[i] = Q[rows[i], int(adds[i])]
    at = PACK_SUB_KEEPS + MAX_SUB_KEEPS * r
    keeps = m.packed[at : at + MAX_SUB_KEEPS]
    return keep_options(keeps, rolls_left, K1, K2, codes, values, count)


@jit
def target_weights(target, w, C):
    """Weights of a single target: ``w[target] = 1``. Returns ``xmax``."""
    xmax = max(target, 0) + 1
    w[:xmax] = 0.0
    w[xmax - 1] = 1.0
    C[0] = 0.0
    for x in range(xmax):
        C[x + 1] = C[x] + w[x]
    return xmax


@jit
def rival_weights(me, n, masks, yfs, us, totals, levels, start, lo, hi, cap, m, cdf, w, C):
    """Weights of the best of the other players' final totals under expected-value play
    (each from its table curve; a full card of model ``m``: its total is final): ``w[x]``
    = the chance that a final total of ``x`` ties it (counted half) or beats it by one
    point (half), so that the sum against a curve is the chance to win, ties counted
    half. Returns ``xmax``."""
    xmax = 1
    for j in range(n):
        if j != me:
            xmax = max(xmax, totals[j] + cap + 3)
    cdf[:xmax] = 1.0
    for j in range(n):
        if j == me:
            continue
        t = totals[j]
        if masks[j] == (1 << m.n_boxes) - 1:
            for x in range(xmax):
                if x < t:
                    cdf[x] = 0.0
            continue
        idx = state_index(masks[j], yfs[j], us[j], m)
        a, b, s = lo[idx], hi[idx], start[idx]
        for x in range(xmax):  # P(final <= x) = 1 - S(x + 1 - t)
            n_more = x + 1 - t
            if n_more < a:
                survive = 1.0
            elif n_more > b:
                survive = 0.0
            else:
                survive = levels[s + n_more - a] / LEVELS
            cdf[x] *= 1.0 - survive
    prev_p = 0.0
    prev_cdf = 0.0
    C[0] = 0.0
    for x in range(xmax):
        p = cdf[x] - prev_cdf
        prev_cdf = cdf[x]
        w[x] = 0.5 * (p + prev_p)
        prev_p = p
        C[x + 1] = C[x] + w[x]
    return xmax
