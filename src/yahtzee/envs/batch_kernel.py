"""Compiled kernels of the batched environment (numba): many solitaire games stepped at once.

Each game is (filled-box ``mask``, ``yf`` = the Yahtzee box holds 50, uncapped ``upper``
subtotal, ``total``, ``roll`` index, ``rolls_left``, ``done``) plus its own splitmix64
random state. Legal boxes and points come from the solver's kernels over the rule set's
scoring arrays (`yahtzee.solver.tables`, built from ``core.placements``), so these
kernels hold no rule of their own.
"""

from __future__ import annotations

import numpy as np

from ..core import FACE_COUNT, ROLLS_PER_TURN
from ..solver.kernel import candidates, jit
from ..solver.layout import MAX_CANDIDATES, YAHTZEE_BOX
from ..solver.policy import place
from ..solver.tables import ALL_FILLED, MAX_SUB_KEEPS, N_BOXES, N_MULTISETS, ROLL_BASE

N_KEEPS = N_MULTISETS
FIRST_ROLLS_LEFT = ROLLS_PER_TURN - 1  # rolls left once the environment has rolled


@jit
def _next(rng, i):
    """splitmix64: the next 64-bit draw of game ``i``'s stream."""
    rng[i] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[i]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _throw(keep, rng, i, m):
    """Throw the dice not in multiset ``keep``; the roll index."""
    ms = keep
    while ms < ROLL_BASE:
        face = (_next(rng, i) >> np.uint64(11)) % np.uint64(FACE_COUNT)  # bias below 1e-15
        ms = m.add[ms, face]
    return ms - ROLL_BASE


@jit
def _start(i, state, rng, m):
    state[i, :] = 0
    state[i, 4] = _throw(0, rng, i, m)
    state[i, 5] = FIRST_ROLLS_LEFT


@jit
def reset(which, state, rng, m):
    """Start a new game in every lane where ``which`` is set."""
    for i in range(state.shape[0]):
        if which[i]:
            _start(i, state, rng, m)


@jit
def step(actions, apply, state, rng, m, points):
    """Take ``actions[i]`` in every lane where ``apply[i]`` (each already checked legal);
    a lane whose game was over starts a new game instead. ``points[i]`` gets what the
    action added to the total. State columns: mask, yf, upper, total, roll, rolls_left,
    done."""
    for i in range(state.shape[0]):
        points[i] = 0
        if state[i, 6]:
            _start(i, state, rng, m)
            continue
        if not apply[i]:
            continue
        a = actions[i]
        if a < N_KEEPS:
            state[i, 4] = _throw(a, rng, i, m)
            state[i, 5] -= 1
            continue
        c = a - N_KEEPS
        mask, yf, upper, total, _ = place(state[i, 0], state[i, 1], state[i, 2], state[i, 3],
                                          state[i, 4], c, m)  # fmt: skip
        points[i] = total - state[i, 3]
        state[i, 0], state[i, 1], state[i, 2], state[i, 3] = mask, yf, upper, total
        if state[i, 0] == ALL_FILLED:
            state[i, 6] = 1
            state[i, 5] = 0
        else:
            state[i, 4] = _throw(0, rng, i, m)
            state[i, 5] = FIRST_ROLLS_LEFT


@jit
def observe(state, m, masks, dice, filled, yahtzee_box):
    """The legal-action masks and the observation arrays of every lane."""
    rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
    for i in range(state.shape[0]):
        masks[i, :] = 0
        mask = state[i, 0]
        for c in range(N_BOXES):
            filled[i, c] = (mask >> c) & 1
        yahtzee_box[i] = 0 if not (mask >> YAHTZEE_BOX) & 1 else (2 if state[i, 1] else 1)
        if state[i, 6]:
            dice[i, :] = 0
            continue
        r = state[i, 4]
        dice[i, :] = m.counts[r, :]
        if state[i, 5] > 0:
            for j in range(MAX_SUB_KEEPS):
                k = m.sub_keeps[r, j]
                if k < 0:
                    break
                masks[i, k] = 1
        count = candidates(mask, state[i, 1], r, m, rows, adds, cats)
        for j in range(count):
            masks[i, N_KEEPS + cats[j]] = 1
