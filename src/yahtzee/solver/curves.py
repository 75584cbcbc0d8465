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
``(mask * yfs + yf) * (cap + 1) + u`` as in the solver's table (``yfs``: 2 where the card
has a Yahtzee box, else 1; see `tables.CardShape.table_shape`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from ..core import DICE_COUNT, FACE_COUNT
from .advice import TIE
from .kernel import (
    _mx,
    box_rows,
    candidates,
    closed_boxes,
    jit,
    jit_inline,
    jit_parallel,
    next_state,
)
from .layout import (
    MAX_CANDIDATES,
    N_MS,
    N_ROWS,
    ROW_DEAD,
)
from .policy import solve_turn
from .tables import MAX_SUB_KEEPS, N_ROLLS, ROLL_BASE

SURVIVAL = 0
PMF = 1
SubKeeps = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
TILE = 128  # points per pass inside a turn: a tile of every keep fits the core's cache


@jit_inline
def state_index(mask, yf, u, m):
    """The index of turn-start state ``(mask, yf, u)`` of the card of model ``m``."""
    return (mask * (2 if m.yahtzee_box >= 0 else 1) + yf) * (m.cap + 1) + u


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
    """Per row of the turn's table (see `layout`): the next state's index and the
    points a placement on it gains before the per-roll points (upper boxes: all of them,
    the upper bonus included). Rows of filled boxes get -1."""
    for j in range(N_ROWS):
        succ[j] = -1
        gain[j] = 0
    closed = closed_boxes(mask, m.n_boxes, m.ordered)
    for c in range(m.n_boxes):
        if closed >> c & 1:
            continue
        for k in range(box_rows(c, m.yahtzee_box)):
            row, nm, nyf, nu, g = next_state(mask, yf, u, c, k, m.cap, int(m.upper_bonus),
                                             m.yahtzee_box)  # fmt: skip
            succ[row] = state_index(nm, nyf, nu, m)
            gain[row] = g


@jit
def _keep_means(A, n, add):
    """`kernel.keep_means` in the arrays' own precision (float32 stays float32)."""
    sixth = A.dtype.type(1.0 / FACE_COUNT)
    for k in range(ROLL_BASE - 1, -1, -1):
        c0, c1, c2, c3, c4, c5 = add[k, 0], add[k, 1], add[k, 2], add[k, 3], add[k, 4], add[k, 5]
        a0, a1, a2, a3, a4, a5, out = A[c0], A[c1], A[c2], A[c3], A[c4], A[c5], A[k]
        for lane in range(n):
            out[lane] = (a0[lane] + a1[lane] + a2[lane] + a3[lane] + a4[lane] + a5[lane]) * sixth


def smaller_keeps(remove: npt.NDArray[np.int32], size: npt.NDArray[np.int32]) -> SubKeeps:
    """Per multiset: the distinct multisets with one die fewer (one per face it holds), as
    indices from the first multiset of that size, padded to five by repeating the first
    (a max over a repeated row is the same max); and where each size starts (multisets are
    indexed by size)."""
    assert np.all(np.diff(size) >= 0)
    starts = np.searchsorted(size, np.arange(DICE_COUNT + 2)).astype(np.int64)
    out = np.zeros((len(remove), DICE_COUNT), dtype=np.int64)
    for s, row in enumerate(remove):
        if s == 0:
            continue
        found = sorted({int(k) for k in row if k != s})
        found += [found[0]] * (DICE_COUNT - len(found))
        out[s] = np.array(found) - starts[size[s] - 1]
    return out, starts


@jit
def _level_maxes(out, smaller, nb, below):
    """``out[i]`` (one size of multisets) becomes its max with the rows of ``smaller``
    (the size below) that ``below[i]`` names. The two are separate runs of rows, so the
    compiler vectorises the loop (in place over one array it stays 2-3 times slower)."""
    for i in range(out.shape[0]):
        o = out[i]
        a, b, c = smaller[below[i, 0]], smaller[below[i, 1]], smaller[below[i, 2]]
        d, e = smaller[below[i, 3]], smaller[below[i, 4]]
        for lane in range(nb):
            o[lane] = _mx(_mx(_mx(o[lane], e[lane]), _mx(a[lane], b[lane])), _mx(c[lane], d[lane]))


@jit
def _sub_maxes(A, nb, sub):
    """``A[s]`` becomes the max of ``A`` over every sub-multiset of ``s`` (as
    `kernel.sub_maxes`), one size at a time from the smallest."""
    below, starts = sub
    for k in range(1, DICE_COUNT + 1):
        a, b, c = starts[k - 1], starts[k], starts[k + 1]
        _level_maxes(A[b:c], A[a:b], nb, below[b:c])


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
                  succ, gain, rows, adds, cats, tmp, out, eps, smaller, probability):  # fmt: skip
    """``out[:width]``: the survival curve of one state, from its next states' curves.
    Returns the window ``(low, high)`` outside which the curve is exactly 1 (below) or 0
    (above): there every leaf of the turn is 1 or 0, so only the window is worked out."""
    successors(mask, yf, u, m, succ, gain)
    low, high = width, -1
    for r in range(N_ROLLS):
        count = candidates(mask, yf, r, m, rows, adds, cats)
        ccount[r] = count
        reach = -1  # below this, some placement of roll r is sure to make it
        for i in range(count):
            j, a = rows[i], int(adds[i])
            crow[r, i] = j
            cadd[r, i] = a
            s = succ[j]
            reach = max(reach, lo[s] + gain[j] + a)
            high = max(high, hi[s] + gain[j] + a)
        low = min(low, reach)
        while count % 4:  # whole passes of four (the dead row's curve is 0 everywhere)
            crow[r, count] = ROW_DEAD
            cadd[r, count] = 0
            count += 1
        ccount[r] = count
    low = max(low, 1)
    high = min(high, width - 1)
    for n in range(min(low, width)):
        out[n] = 1.0
    for n in range(max(high + 1, low), width):
        out[n] = 0.0
    if high < low:
        return low, high
    for j in range(N_ROWS):
        if succ[j] >= 0:
            _fill_survival(F[j], succ[j], gain[j], pad, width, values, start, lo, hi)
    for t0 in range(low, high + 1, TILE):
        nb = min(TILE, high + 1 - t0)
        for r in range(N_ROLLS):
            dst = A[ROLL_BASE + r]
            # four placements a pass, as slices (lanes are plain offsets: numba then
            # vectorises the max)
            for q in range(0, ccount[r], 4):
                o0, o1 = pad + t0 - cadd[r, q], pad + t0 - cadd[r, q + 1]
                o2, o3 = pad + t0 - cadd[r, q + 2], pad + t0 - cadd[r, q + 3]
                s0, s1 = F[crow[r, q], o0 : o0 + nb], F[crow[r, q + 1], o1 : o1 + nb]
                s2, s3 = F[crow[r, q + 2], o2 : o2 + nb], F[crow[r, q + 3], o3 : o3 + nb]
                if q == 0:
                    for lane in range(nb):
                        dst[lane] = _mx(_mx(s0[lane], s1[lane]), _mx(s2[lane], s3[lane]))
                else:
                    for lane in range(nb):
                        best = _mx(_mx(s0[lane], s1[lane]), _mx(s2[lane], s3[lane]))
                        dst[lane] = _mx(dst[lane], best)
        _keep_means(A, nb, m.add)
        _sub_maxes(A, nb, smaller)
        _keep_means(A, nb, m.add)
        _sub_maxes(A, nb, smaller)
        # the turn's start: the mean over the first throw's rolls (as the keep of no
        # dice would be built die by die, with a sixth of the work)
        for lane in range(nb):
            tmp[lane] = 0.0
        for r in range(N_ROLLS):
            p = probability[r]
            v = A[ROLL_BASE + r]
            for lane in range(nb):
                tmp[lane] += v[lane] * p
        for lane in range(nb):
            out[t0 + lane] = tmp[lane]
        if tmp[nb - 1] <= eps:  # the curve falls: what is left would be cut to 0
            for n in range(t0 + nb, high + 1):
                out[n] = 0.0
            return low, t0 + nb - 1
    return low, high


@jit_parallel
def survival_layer(states, widths, m, pad, values, start, lo, hi, eps, smaller, probability, out,
                   window):  # fmt: skip
    """``out[i, :widths[i]]``: the survival curve of each state ``(mask, yf, u)``;
    ``window[i]``: where it was worked out (see `survival_turn`)."""
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
        low, high = survival_turn(states[i, 0], states[i, 1], states[i, 2], width, m, pad,
                                  values, start, lo, hi, F, A, crow, cadd, ccount, succ, gain,
                                  rows, adds, cats, tmp, out[i], eps, smaller,
                                  probability)  # fmt: skip
        window[i, 0] = low
        window[i, 1] = high


@jit
def turn_outcomes(mask, yf, u, E, m, probability, R, K1, K2, box_value, box_row, box_add, mass,
                  keeps, rows, adds, cats, landed):  # fmt: skip
    """``landed[row, a]``: the chance that the turn, played by the expected-value policy
    (ties to the first option, as the bots play: `policy.pick` over
    `policy.turn_options`), ends on that row of the turn's table with ``a`` points
    added on top of the row's own gain.

    A roll's best box is the same with any rolls left, so it is found once per roll; with
    rolls left, the scan goes on over the roll's keeps, as ``pick`` would."""
    solve_turn(mask, yf, u, E, m.packed, m.joker, m.joker_bonus, m.cap, m.upper_bonus, R, K1, K2)
    for r in range(N_ROLLS):
        n = candidates(mask, yf, r, m, rows, adds, cats)
        best, value = 0, R[rows[0]] + adds[0]
        for i in range(1, n):
            v = R[rows[i]] + adds[i]
            if v > value + TIE:
                best, value = i, v
        box_value[r] = value
        box_row[r] = rows[best]
        box_add[r] = int(adds[best])
    landed[:, :] = 0.0
    for r in range(N_ROLLS):
        mass[r] = probability[r]
    for rolls_left in range(2, -1, -1):
        keeps[:] = 0.0
        K = K1 if rolls_left == 1 else K2
        for r in range(N_ROLLS):
            w = mass[r]
            if w == 0.0:
                continue
            keep = -1
            if rolls_left > 0:
                value = box_value[r]
                for j in range(MAX_SUB_KEEPS):
                    k = m.sub_keeps[r, j]
                    if k < 0:
                        break
                    if K[k] > value + TIE:
                        keep, value = k, K[k]
            if keep >= 0:
                keeps[keep] += w
            else:
                landed[box_row[r], box_add[r]] += w
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
def pmf_turn(mask, yf, u, width, E, m, probability, values, start, lo, hi, R, K1, K2, box_value,
             box_row, box_add, mass, keeps, rows, adds, cats, landed, succ, gain, out):  # fmt: skip
    """``out[:width]``: the distribution of the points still to come from one state under
    the expected-value policy, from the next states' survival curves (points from
    ``width`` on are left out)."""
    turn_outcomes(mask, yf, u, E, m, probability, R, K1, K2, box_value, box_row, box_add, mass,
                  keeps, rows, adds, cats, landed)  # fmt: skip
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
def pmf_layer(states, widths, E, m, probability, max_add, values, start, lo, hi, cut, out):
    """``out[i, :widths[i]]``: the survival curve ``S(n)`` of the points still to come from
    each state ``(mask, yf, u)`` under the expected-value policy; in a row as wide as
    ``cut``, the chance of more counts as its last point."""
    for i in prange(states.shape[0]):
        R = np.empty(N_ROWS)
        K1 = np.empty(N_MS)
        K2 = np.empty(N_MS)
        box_value = np.empty(N_ROLLS)
        box_row = np.empty(N_ROLLS, dtype=np.int64)
        box_add = np.empty(N_ROLLS, dtype=np.int64)
        mass = np.empty(N_ROLLS)
        keeps = np.empty(N_MS)
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        landed = np.empty((N_ROWS, max_add + 1))
        succ = np.empty(N_ROWS, dtype=np.int64)
        gain = np.empty(N_ROWS, dtype=np.int64)
        width, row = widths[i], out[i]
        pmf_turn(states[i, 0], states[i, 1], states[i, 2], width, E, m, probability, values,
                 start, lo, hi, R, K1, K2, box_value, box_row, box_add, mass, keeps, rows, adds,
                 cats, landed, succ, gain, row)  # fmt: skip
        total = 0.0  # from the top down, as numpy's cumsum of the reversed row adds
        for n in range(width - 1, -1, -1):
            total += row[n]
            row[n] = total
        if width == cut:
            missing = 1.0 - row[0]
            for n in range(width):
                row[n] += missing


@jit_parallel
def find_bands(curves, widths, eps, lo, hi):
    """Per row: ``lo`` = the first point from 1 on where the curve is below ``1 - eps``,
    ``hi`` = the last where it is above ``eps`` (at least ``lo - 1``); outside, the
    curve is taken as 1 and 0."""
    for i in prange(curves.shape[0]):
        row, width = curves[i], widths[i]
        a = width
        for n in range(1, width):
            if row[n] < 1.0 - eps:
                a = n
                break
        b = 0
        for n in range(width - 1, -1, -1):
            if row[n] > eps:
                b = n
                break
        lo[i] = a
        hi[i] = max(b, a - 1)


@jit_parallel
def copy_bands(curves, lo, hi, offsets, out):
    """Each row's band, one after the other from ``offsets``."""
    for i in prange(curves.shape[0]):
        at = offsets[i] - lo[i]
        for n in range(lo[i], hi[i] + 1):
            out[at + n] = curves[i, n]


@jit_parallel
def level_bands(curves, lo, hi, offsets, levels, out):
    """`copy_bands` as 16-bit levels: ``round(clip(value, 0, 1) * levels)``."""
    for i in prange(curves.shape[0]):
        at = offsets[i] - lo[i]
        for n in range(lo[i], hi[i] + 1):
            out[at + n] = np.uint16(np.rint(min(max(curves[i, n], 0.0), 1.0) * levels))
