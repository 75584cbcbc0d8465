"""Compiled kernels of the solver (numba).

Values are expected points still to come. A turn-start state is (filled boxes ``mask``,
capped upper subtotal ``u``, ``yf`` = the Yahtzee box holds 50). Inside a turn:

* ``V0[r]``: the best placement of roll ``r`` (no rolls left);
* ``K_n[k]``: keeping multiset ``k`` and throwing the rest with ``n`` rolls left, built die
  by die: the mean over the six faces of keeping one die more;
* ``V_n[r]``: the max over every sub-multiset of ``r`` (built one removed die at a time),
  where keeping all five means standing on the roll.

Every kernel works on ``n`` lanes of upper subtotals ``u0 .. u0 + n - 1`` at once (the
rows of the work arrays), so the build vectorises over the subtotal. Advice and
simulation solve one state at a time with the one-lane turn of `policy`: the same
arithmetic, so the same values bit for bit (``tests/solver`` checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic, register_jitable

from ..core import FACE_COUNT
from . import transition
from .layout import (
    MAX_CANDIDATES,
    N_MS,
    N_ROWS,
    NEG,
    ROW_DEAD,
    ROW_LOWER,
    ROW_UPPER,
    ROW_YAHTZEE_0,
    ROW_YAHTZEE_50,
    UPPER_ROWS,
)
from .tables import N_ROLLS, N_UPPER, ROLL_BASE

jit = njit(cache=True, fastmath=True, error_model="numpy", nogil=True)
jit_inline = njit(cache=True, fastmath=True, error_model="numpy", nogil=True, inline="always")
jit_parallel = njit(cache=True, fastmath=True, error_model="numpy", nogil=True, parallel=True)

# The transition primitives are plain Python (the numpy turn calls them as they are);
# registered, they compile inline into every kernel that calls them.
upper_step = register_jitable(inline="always")(transition.upper_step)
box_rows = register_jitable(inline="always")(transition.box_rows)
closed_boxes = register_jitable(inline="always")(transition.closed_boxes)
next_state = register_jitable(inline="always")(transition.next_state)


@intrinsic
def _maxnum(typingctx, a, b):
    """The larger of two floats of one type, as LLVM's ``maxnum``: one max instruction,
    which loops vectorise (numba's ``a if a > b else b`` is a compare and a select, and
    its ``max`` checks for NaN: up to 4 times slower in a vectorised loop). Values here
    are never NaN, so the result is the exact max either way."""
    if not (isinstance(a, types.Float) and a == b):
        return None
    name = f"llvm.maxnum.f{a.bitwidth}"

    def codegen(context, builder, signature, args):
        kind = context.get_value_type(signature.return_type)
        signature_ir = ir.FunctionType(kind, [kind, kind])
        fn = cgutils.get_or_insert_function(builder.module, signature_ir, name)  # type: ignore[no-untyped-call]
        return builder.call(fn, args)

    return a(a, b), codegen


_mx = cast("Callable[[float, float], float]", _maxnum)


@jit
def next_rows(mask, yf, u0, n, E, m, R):
    """Fill ``R`` with the value of each placement's next state, per lane (the boxes
    that may be filled now)."""
    for lane in range(n):
        R[ROW_DEAD, lane] = NEG
    closed = closed_boxes(mask, m.n_boxes, m.ordered)
    for c in range(m.n_boxes):
        if closed >> c & 1:
            continue
        for k in range(box_rows(c, m.yahtzee_box)):
            for lane in range(n):
                row, nm, nyf, nu, gain = next_state(mask, yf, u0 + lane, c, k, m.cap,
                                                    m.upper_bonus, m.yahtzee_box)  # fmt: skip
                R[row, lane] = gain + E[nm, nyf, nu]


@jit
def _best_of(R, n, rows, adds, count, out):
    """``out[l] = max_i R[rows[i], l] + adds[i]``, four candidates per pass."""
    while count % 4:
        rows[count] = ROW_DEAD
        adds[count] = 0.0
        count += 1
    for lane in range(n):
        out[lane] = NEG
    for q in range(0, count, 4):
        j0, j1, j2, j3 = rows[q], rows[q + 1], rows[q + 2], rows[q + 3]
        a0, a1, a2, a3 = adds[q], adds[q + 1], adds[q + 2], adds[q + 3]
        for lane in range(n):
            best = _mx(
                _mx(R[j0, lane] + a0, R[j1, lane] + a1), _mx(R[j2, lane] + a2, R[j3, lane] + a3)
            )
            out[lane] = _mx(out[lane], best)


@jit
def candidates(mask, yf, r, m, rows, adds, cats):
    """The legal placements of roll ``r``: their rows of ``R``, points added, and boxes."""
    if _joker_possible(mask, m):
        for f in range(FACE_COUNT):
            if m.yahtzee_roll[f] == r:
                return _joker_candidates(mask, yf, f, m, rows, adds, cats)
    return _candidates(mask, r, m, rows, adds, cats)


@jit_inline
def _joker_possible(mask, m):
    """Whether the card has a Yahtzee box and it is filled (a five of a kind then plays
    by the Joker table, and the state tells whether the box holds 50)."""
    return m.yahtzee_box >= 0 and ((mask >> m.yahtzee_box) & 1) == 1


@jit
def _candidates(mask, r, m, rows, adds, cats):
    """The placements of roll ``r`` by the boxes' own definitions (no Joker)."""
    i = 0
    closed = closed_boxes(mask, m.n_boxes, m.ordered)
    for c in range(m.n_boxes):
        if closed >> c & 1:
            continue
        cats[i] = c
        if c < N_UPPER:
            rows[i] = ROW_UPPER + UPPER_ROWS * c + m.counts[r, c]
            adds[i] = 0.0
        elif c == m.yahtzee_box:
            p = m.points[r, c]
            rows[i] = ROW_YAHTZEE_50 if p > 0 else ROW_YAHTZEE_0
            adds[i] = p
        else:
            rows[i] = ROW_LOWER + c
            adds[i] = m.points[r, c]
        i += 1
    return i


@jit
def _joker_candidates(mask, yf, f, m, rows, adds, cats):
    """The placements of five of face ``f + 1`` when the Yahtzee box is filled."""
    bonus = m.joker_bonus if yf == 1 else 0
    i = 0
    for c in range(m.n_boxes):
        p = m.joker[mask, f, c]
        if p < 0:
            continue
        cats[i] = c
        if c < N_UPPER:
            rows[i] = ROW_UPPER + UPPER_ROWS * c + p // (c + 1)
            adds[i] = bonus
        else:
            rows[i] = ROW_LOWER + c
            adds[i] = p + bonus
        i += 1
    return i


@jit
def final_values(mask, yf, n, m, R, A, rows, adds, cats):
    """``A[ROLL_BASE + r, l]``: the best placement of roll ``r`` (``R`` filled first)."""
    for r in range(N_ROLLS):
        count = _candidates(mask, r, m, rows, adds, cats)
        _best_of(R, n, rows, adds, count, A[ROLL_BASE + r])
    if _joker_possible(mask, m):
        for f in range(FACE_COUNT):
            count = _joker_candidates(mask, yf, f, m, rows, adds, cats)
            _best_of(R, n, rows, adds, count, A[ROLL_BASE + m.yahtzee_roll[f]])


@jit
def keep_means(A, n, add):
    """``A[k]`` for every keep of under five dice: the mean over the next die's face."""
    for k in range(ROLL_BASE - 1, -1, -1):
        c0, c1, c2, c3, c4, c5 = add[k, 0], add[k, 1], add[k, 2], add[k, 3], add[k, 4], add[k, 5]
        for lane in range(n):
            total = A[c0, lane] + A[c1, lane] + A[c2, lane] + A[c3, lane] + A[c4, lane]
            A[k, lane] = (total + A[c5, lane]) * (1.0 / FACE_COUNT)


@jit
def sub_maxes(A, n, remove, tmp):
    """``A[s]`` becomes the max of ``A`` over every sub-multiset of ``s``."""
    for s in range(1, N_MS):
        c0, c1, c2 = remove[s, 0], remove[s, 1], remove[s, 2]
        c3, c4, c5 = remove[s, 3], remove[s, 4], remove[s, 5]
        for lane in range(n):
            low = _mx(_mx(A[c0, lane], A[c1, lane]), _mx(A[c2, lane], A[c3, lane]))
            tmp[lane] = _mx(_mx(low, A[s, lane]), _mx(A[c4, lane], A[c5, lane]))
        for lane in range(n):
            A[s, lane] = tmp[lane]


@jit
def turn(mask, yf, u0, n, E, m, R, A, rows, adds, cats, tmp, K1, K2):
    """Solve a turn for ``n`` lanes; ``A[0, l]`` is then the turn-start value.

    When ``K1`` and ``K2`` have rows, they receive the keep values with one and two rolls
    left instead (``K1[ROLL_BASE + r]`` standing on roll ``r``), and the turn stops there.
    """
    next_rows(mask, yf, u0, n, E, m, R)
    final_values(mask, yf, n, m, R, A, rows, adds, cats)
    keep_means(A, n, m.add)
    if K1.shape[0]:
        K1[:, :n] = A[:, :n]
    sub_maxes(A, n, m.remove, tmp)
    keep_means(A, n, m.add)
    if K2.shape[0]:
        K2[:, :n] = A[:, :n]
        return
    sub_maxes(A, n, m.remove, tmp)
    keep_means(A, n, m.add)


@jit_parallel
def build_layer(masks, reach, E, m):
    """Solve every turn-start state of the given masks (one layer) into ``E``."""
    none = np.empty((0, 0))
    for i in prange(masks.shape[0]):
        mask = masks[i]
        n = reach[mask] + 1
        R = np.empty((N_ROWS, n))
        A = np.empty((N_MS, n))
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        tmp = np.empty(n)
        for yf in range(2 if _joker_possible(mask, m) else 1):
            turn(mask, yf, 0, n, E, m, R, A, rows, adds, cats, tmp, none, none)
            for lane in range(n):
                E[mask, yf, lane] = A[0, lane]
