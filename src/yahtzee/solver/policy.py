"""Playing from a value table: one state's turn, the choice of an action, and whole games.

The same compiled functions serve the advisor, the bots in a live game and the fast
simulation, so the three always agree.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..core import FACE_COUNT, ROLLS_PER_TURN, ROUNDS
from .advice import TIE
from .kernel import candidates, jit, jit_parallel, turn
from .layout import (
    KEEP,
    LOG_BOX,
    MAX_CANDIDATES,
    MAX_OPTIONS,
    N_MS,
    N_ROWS,
    SCORE,
    YAHTZEE_BOX,
)
from .tables import MAX_SUB_KEEPS, N_UPPER, ROLL_BASE


@jit
def turn_tables(mask, yf, u, E, m, R, K1, K2):
    """One state's turn on a single lane.

    Fills ``R`` (next-state values per placement row), ``K1`` (keeps with one roll left;
    ``K1[ROLL_BASE + r]`` is the value of standing on roll ``r``) and ``K2`` (keeps with
    two rolls left).
    """
    A = np.empty((N_MS, 1))
    rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
    tmp = np.empty(1)
    turn(mask, yf, u, 1, E, m, R, A, rows, adds, cats, tmp, K1, K2)


@jit
def option_values(mask, yf, r, rolls_left, m, R, K1, K2, kinds, ids, values):
    """Every distinct option for roll ``r``: boxes first (scorecard order), then keeps of
    under five dice (in :meth:`Keep.all` order). Returns how many were written."""
    rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
    adds = np.empty(MAX_CANDIDATES)
    cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
    count = candidates(mask, yf, r, m, rows, adds, cats)
    for i in range(count):
        kinds[i] = SCORE
        ids[i] = cats[i]
        values[i] = R[rows[i], 0] + adds[i]
    if rolls_left > 0:
        for j in range(MAX_SUB_KEEPS):
            k = m.sub_keeps[r, j]
            if k < 0:
                break
            kinds[count] = KEEP
            ids[count] = k
            values[count] = K1[k, 0] if rolls_left == 1 else K2[k, 0]
            count += 1
    return count


@jit
def pick(values, count, temperature):
    """The index of the best option (the first on a tie), or a softmax draw when the
    temperature is positive: options worse by ``t`` points are ``e`` times less likely."""
    best = 0
    for i in range(1, count):
        if values[i] > values[best] + TIE:
            best = i
    if temperature <= 0.0:
        return best
    weights = np.empty(count)
    total = 0.0
    for i in range(count):
        weights[i] = np.exp((values[i] - values[best]) / temperature)
        total += weights[i]
    draw = np.random.random() * total
    for i in range(count):
        draw -= weights[i]
        if draw <= 0.0:
            return i
    return best


@jit
def placement_points(mask, yf, r, c, m):
    """The points roll ``r`` scores in box ``c`` now, and the Yahtzee bonus it earns."""
    if mask >> YAHTZEE_BOX & 1:
        for f in range(FACE_COUNT):
            if m.yahtzee_roll[f] == r:
                return m.joker[mask, f, c], (m.joker_bonus if yf == 1 else 0)
    return m.points[r, c], 0


@jit
def throw(keep, m):
    """Throw the dice not kept; returns the roll index."""
    ms = keep
    while ms < ROLL_BASE:
        ms = m.add[ms, np.random.randint(0, FACE_COUNT)]
    return ms - ROLL_BASE


@jit
def game_seed(seed, stream, g):
    """A well-mixed 32-bit seed for game ``g`` of ``stream`` (splitmix64 of the three)."""
    x = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15)
    x ^= np.uint64(stream) * np.uint64(0xBF58476D1CE4E5B9) + np.uint64(g)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x = x ^ (x >> np.uint64(31))
    return np.uint32(x >> np.uint64(32))


@jit_parallel
def simulate(n_games, seed, stream, E, m, temperature, uniform, totals, uppers, yahtzees, bonuses,
             log):  # fmt: skip
    """Play ``n_games`` solitaire games; game ``g`` uses its own seed, so results do not
    depend on threads. ``uniform`` plays uniformly at random among the legal options."""
    R0 = np.empty((N_ROWS, 1))
    K1_0 = np.empty((N_MS, 1))
    K2_0 = np.empty((N_MS, 1))
    turn_tables(0, 0, 0, E, m, R0, K1_0, K2_0)  # every game starts in the same state
    for g in prange(n_games):
        np.random.seed(game_seed(seed, stream, g))
        R = np.empty((N_ROWS, 1))
        K1 = np.empty((N_MS, 1))
        K2 = np.empty((N_MS, 1))
        kinds = np.empty(MAX_OPTIONS, dtype=np.int64)
        ids = np.empty(MAX_OPTIONS, dtype=np.int64)
        values = np.zeros(MAX_OPTIONS)
        mask, u, yf, total, upper, n_bonus = 0, 0, 0, 0, 0, 0
        for t in range(ROUNDS):
            if t == 0:
                R[:], K1[:], K2[:] = R0, K1_0, K2_0
            else:
                turn_tables(mask, yf, u, E, m, R, K1, K2)
            r = throw(0, m)
            step = 0
            if g < log.shape[0]:
                log[g, t, :] = -1
                log[g, t, 0] = r
            rolls_left = ROLLS_PER_TURN - 1
            while True:
                count = option_values(mask, yf, r, rolls_left, m, R, K1, K2, kinds, ids, values)
                choice = (
                    np.random.randint(0, count) if uniform else pick(values, count, temperature)
                )
                if kinds[choice] == SCORE:
                    break
                r = throw(ids[choice], m)
                rolls_left -= 1
                if g < log.shape[0]:
                    log[g, t, 1 + 2 * step] = ids[choice]
                    log[g, t, 2 + 2 * step] = r
                step += 1
            c = ids[choice]
            if g < log.shape[0]:
                log[g, t, LOG_BOX] = c
            p, bonus = placement_points(mask, yf, r, c, m)
            total += p + bonus
            n_bonus += 1 if bonus > 0 else 0
            if c < N_UPPER:
                if upper < m.cap <= upper + p:
                    total += int(m.upper_bonus)
                upper += p
                u = min(upper, m.cap)
            if c == YAHTZEE_BOX:
                yf = 1 if p > 0 else 0
            mask |= 1 << c
        totals[g] = total
        uppers[g] = upper
        yahtzees[g] = yf
        bonuses[g] = n_bonus
