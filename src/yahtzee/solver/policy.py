"""Playing from a value table: one state's turn, the choice of an action, and whole games.

The same compiled functions serve the advisor, the bots in a live game and the fast
simulation, so the three always agree. A single state's turn runs on one lane of 1-D
arrays (the multi-lane kernels in `kernel` build the table), with the same
arithmetic, so it gives the same values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from numba import njit, prange

from ..core import FACE_COUNT, ROLLS_PER_TURN
from .advice import TIE
from .kernel import box_rows, closed_boxes, jit, jit_inline, jit_parallel, next_state, upper_step
from .layout import (
    KEEP,
    KEEP_CODE,
    LOG_BOX,
    MAX_OPTIONS,
    N_MS,
    N_ROWS,
    NEG,
    PACK_ADD,
    PACK_COUNTS,
    PACK_COUNTS_BY_FACE,
    PACK_N_BOXES,
    PACK_ORDERED,
    PACK_POINTS,
    PACK_POINTS_BY_BOX,
    PACK_REMOVE,
    PACK_SUB_KEEPS,
    PACK_YAHTZEE_BOX,
    PACK_YAHTZEE_ROLL,
    ROW_DEAD,
    ROW_LOWER,
    ROW_UPPER,
    ROW_YAHTZEE_0,
    ROW_YAHTZEE_50,
    SCORE,
    TURN_SIZE,
    UPPER_ROWS,
)
from .tables import MAX_BOXES, MAX_SUB_KEEPS, N_ROLLS, N_UPPER, ROLL_BASE

jit_exact = njit(cache=True, error_model="numpy", nogil=True)
"""No fast-math: totals and their ranking are computed exactly as Python computes them."""


@jit_inline
def _mx(a: float, b: float) -> float:
    return a if a > b else b


@jit_inline
def card_of(packed):
    """The card `tables.pack` packed: its boxes, its Yahtzee box (-1: none) and whether
    boxes are filled in order."""
    return packed[PACK_N_BOXES], packed[PACK_YAHTZEE_BOX], packed[PACK_ORDERED]


@jit_inline
def joker_face(mask, r, packed):
    """The face index of roll ``r`` when it is a five of a kind thrown with the card's
    Yahtzee box filled (it then plays by the Joker table), else -1."""
    ybox = packed[PACK_YAHTZEE_BOX]
    if ybox >= 0 and (mask >> ybox) & 1:
        for f in range(FACE_COUNT):
            if packed[PACK_YAHTZEE_ROLL + f] == r:
                return f
    return -1


@jit
def _next_rows(mask, yf, u, E, cap, upper_bonus, packed, R):
    """``R``: the value of each placement's next state (points and bonus included)."""
    n_boxes, ybox, ordered = card_of(packed)
    R[ROW_DEAD] = NEG
    closed = closed_boxes(mask, n_boxes, ordered)
    for c in range(n_boxes):
        if closed >> c & 1:
            continue
        for k in range(box_rows(c, ybox)):
            row, nm, nyf, nu, gain = next_state(mask, yf, u, c, k, cap, upper_bonus, ybox)
            R[row] = gain + E[nm, nyf, nu]


@jit
def _final_values(mask, yf, R, packed, joker, joker_bonus, A):
    """``A[ROLL_BASE + r]``: the best placement of roll ``r`` (box by box, over every roll)."""
    n_boxes, ybox, ordered = card_of(packed)
    closed = closed_boxes(mask, n_boxes, ordered)
    V = A[ROLL_BASE:]
    for r in range(N_ROLLS):
        V[r] = NEG
    for c in range(N_UPPER):
        if closed >> c & 1:
            continue
        start = PACK_COUNTS_BY_FACE + c * N_ROLLS
        counts = packed[start : start + N_ROLLS].view(np.uint16)  # unsigned: no wraparound
        row = ROW_UPPER + UPPER_ROWS * c
        for r in range(N_ROLLS):
            V[r] = _mx(V[r], R[row + counts[r]] + 0.0)
    for c in range(N_UPPER, n_boxes):
        if closed >> c & 1:
            continue
        points = packed[PACK_POINTS_BY_BOX + c * N_ROLLS : PACK_POINTS_BY_BOX + (c + 1) * N_ROLLS]
        if c == ybox:
            scored, zero = R[ROW_YAHTZEE_50], R[ROW_YAHTZEE_0]
            for r in range(N_ROLLS):
                p = points[r]
                V[r] = _mx(V[r], (scored if p > 0 else zero) + p)
        else:
            after = R[ROW_LOWER + c]
            for r in range(N_ROLLS):
                V[r] = _mx(V[r], after + points[r])
    if ybox >= 0 and (mask >> ybox) & 1:
        bonus = joker_bonus if yf == 1 else 0
        for f in range(FACE_COUNT):
            best = NEG
            for c in range(n_boxes):
                p = joker[mask, f, c]
                if p < 0:
                    continue
                if c < N_UPPER:
                    best = _mx(best, R[ROW_UPPER + UPPER_ROWS * c + p // (c + 1)] + bonus)
                else:
                    best = _mx(best, R[ROW_LOWER + c] + (p + bonus))
            V[packed[PACK_YAHTZEE_ROLL + f]] = best


@jit
def _keep_means(A, packed):
    """``A[k]`` for every keep of under five dice: the mean over the next die's face."""
    add = packed[PACK_ADD:PACK_REMOVE].view(np.uint16)  # unsigned indices: no wraparound
    for k in range(ROLL_BASE - 1, -1, -1):
        i = FACE_COUNT * k
        c0, c1, c2, c3, c4, c5 = add[i], add[i + 1], add[i + 2], add[i + 3], add[i + 4], add[i + 5]
        total = A[c0] + A[c1] + A[c2] + A[c3] + A[c4]
        A[k] = (total + A[c5]) * (1.0 / FACE_COUNT)


@jit
def _sub_maxes(A, packed):
    """``A[s]`` becomes the max of ``A`` over every sub-multiset of ``s``."""
    remove = packed[PACK_REMOVE:PACK_SUB_KEEPS].view(np.uint16)  # unsigned: no wraparound
    for s in range(1, N_MS):
        i = FACE_COUNT * s
        c0, c1, c2 = remove[i], remove[i + 1], remove[i + 2]
        c3, c4, c5 = remove[i + 3], remove[i + 4], remove[i + 5]
        low = _mx(_mx(A[c0], A[c1]), _mx(A[c2], A[c3]))
        A[s] = _mx(_mx(low, A[s]), _mx(A[c4], A[c5]))


@jit
def solve_turn(mask, yf, u, E, packed, joker, joker_bonus, cap, upper_bonus, R, K1, K2):
    """One state's turn on one lane, as `kernel.turn` solves it: ``R`` (next-state
    values per placement row), ``K1`` (keeps with one roll left; ``K1[ROLL_BASE + r]`` is
    the value of standing on roll ``r``) and ``K2`` (keeps with two rolls left), all 1-D.
    ``packed`` is `tables.Model.packed`."""
    _next_rows(mask, yf, u, E, cap, upper_bonus, packed, R)
    _final_values(mask, yf, R, packed, joker, joker_bonus, K1)
    _keep_means(K1, packed)
    K2[:] = K1
    _sub_maxes(K2, packed)
    _keep_means(K2, packed)


@jit
def turn_options(mask, yf, r, rolls_left, packed, joker, joker_bonus, R, K1, K2, codes, values):
    """Every distinct option for roll ``r``: boxes first (scorecard order), then keeps of
    under five dice (in `Keep.all` order), each as a code (box ``c``, or
    ``KEEP_CODE + k`` for keep ``k``) and a value. Returns how many were written."""
    points = packed[PACK_POINTS + MAX_BOXES * r : PACK_POINTS + MAX_BOXES * (r + 1)]
    counts = packed[PACK_COUNTS + FACE_COUNT * r : PACK_COUNTS + FACE_COUNT * (r + 1)]
    keeps = packed[PACK_SUB_KEEPS + MAX_SUB_KEEPS * r : PACK_SUB_KEEPS + MAX_SUB_KEEPS * (r + 1)]
    n_boxes, ybox, ordered = card_of(packed)
    face = joker_face(mask, r, packed)
    count = 0
    if face >= 0:  # a Joker: the legal boxes and points come from the Joker table
        bonus = joker_bonus if yf == 1 else 0
        for c in range(n_boxes):
            p = joker[mask, face, c]
            if p < 0:
                continue
            codes[count] = c
            if c < N_UPPER:
                values[count] = R[ROW_UPPER + UPPER_ROWS * c + p // (c + 1)] + bonus
            else:
                values[count] = R[ROW_LOWER + c] + (p + bonus)
            count += 1
    else:
        closed = closed_boxes(mask, n_boxes, ordered)
        for c in range(n_boxes):
            if closed >> c & 1:
                continue
            codes[count] = c
            if c < N_UPPER:
                values[count] = R[ROW_UPPER + UPPER_ROWS * c + counts[c]] + 0.0
            elif c == ybox:
                p = points[c]
                values[count] = R[ROW_YAHTZEE_50 if p > 0 else ROW_YAHTZEE_0] + p
            else:
                values[count] = R[ROW_LOWER + c] + points[c]
            count += 1
    return keep_options(keeps, rolls_left, K1, K2, codes, values, count)


@jit_inline
def keep_options(keeps, rolls_left, K1, K2, codes, values, count):
    """After ``count`` options, every keep of a roll (``keeps``: its sub-keeps, -1 padded)
    valued with ``rolls_left`` (none without rolls left). Returns the new count."""
    if rolls_left > 0:
        for j in range(MAX_SUB_KEEPS):
            k = keeps[j]
            if k < 0:
                break
            codes[count] = KEEP_CODE + k
            values[count] = K1[k] if rolls_left == 1 else K2[k]
            count += 1
    return count


@jit
def turn_tables(mask, yf, u, E, m, R, K1, K2):
    """One state's turn into the columns ``R[:, 0]``, ``K1[:, 0]`` and ``K2[:, 0]`` (see
    `solve_turn`)."""
    solve_turn(mask, yf, u, E, m.packed, m.joker, m.joker_bonus, m.cap, m.upper_bonus,
               R[:, 0], K1[:, 0], K2[:, 0])  # fmt: skip


@jit
def option_values(mask, yf, r, rolls_left, m, R, K1, K2, kinds, ids, values):
    """`turn_options` from the columns of `turn_tables`, each option as its
    kind (``SCORE`` or ``KEEP``) and its box or keep index."""
    count = turn_options(mask, yf, r, rolls_left, m.packed, m.joker, m.joker_bonus, R[:, 0],
                         K1[:, 0], K2[:, 0], ids, values)  # fmt: skip
    for i in range(count):
        kinds[i] = KEEP if ids[i] >= KEEP_CODE else SCORE
        ids[i] = ids[i] - KEEP_CODE if ids[i] >= KEEP_CODE else ids[i]
    return count


@jit_exact
def _rank(base, count, codes, values):
    """Totals (``base`` plus each value), then the best first (on a tie within ``TIE``
    the first listed) and the others by total, highest first (stable)."""
    for i in range(count):
        values[i] = base + values[i]
    best = 0
    for i in range(1, count):
        if values[i] > values[best] + TIE:
            best = i
    code, value = codes[best], values[best]
    for i in range(best, 0, -1):
        codes[i], values[i] = codes[i - 1], values[i - 1]
    codes[0], values[0] = code, value
    for i in range(2, count):
        code, value = codes[i], values[i]
        j = i
        while j > 1 and values[j - 1] < value:
            codes[j], values[j] = codes[j - 1], values[j - 1]
            j -= 1
        codes[j], values[j] = code, value


def direct_entry(dispatcher: Any, args: tuple[object, ...]) -> Callable[..., Any]:
    """The machine code ``dispatcher`` has compiled for the types of ``args``, called
    without the dispatcher's type checks: only for callers that always pass these types.
    The dispatcher itself where this numba keeps its machine code otherwise."""
    try:
        types = tuple(dispatcher.typeof_pyval(arg) for arg in args)
        return cast("Callable[..., Any]", dispatcher.overloads[types].entry_point)
    except (AttributeError, KeyError, TypeError):
        return cast("Callable[..., Any]", dispatcher)


@jit_exact
def advise(mask, yf, u, r, rolls_left, base, solve, ranked, E, packed, joker, joker_bonus, cap,
           upper_bonus, T, out, at):  # fmt: skip
    """A whole advice in one call. With ``solve``, first solve the state's turn into
    ``T[:TURN_SIZE]`` (``R``, ``K1``, ``K2`` one after the other); then, for a roll
    ``r >= 0``, write every option's expected final total (``base`` plus its value) from
    ``out[at]`` on and its code (see `turn_options`) from ``out[at + MAX_OPTIONS]``
    on, listed as `turn_options` lists them, or ranked best first when ``ranked``.
    Returns how many options were written."""
    R = T[:N_ROWS]
    K1 = T[N_ROWS : N_ROWS + N_MS]
    K2 = T[N_ROWS + N_MS : TURN_SIZE]
    if solve:
        solve_turn(mask, yf, u, E, packed, joker, joker_bonus, cap, upper_bonus, R, K1, K2)
    if r < 0:
        return 0
    values = out[at : at + MAX_OPTIONS]
    codes = out[at + MAX_OPTIONS : at + 2 * MAX_OPTIONS]
    count = turn_options(mask, yf, r, rolls_left, packed, joker, joker_bonus, R, K1, K2, codes,
                         values)  # fmt: skip
    if ranked:
        _rank(base, count, codes, values)
    else:
        for i in range(count):
            values[i] = base + values[i]
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
    f = joker_face(mask, r, m.packed)
    if f >= 0:
        return m.joker[mask, f, c], (m.joker_bonus if yf == 1 else 0)
    return m.points[r, c], 0


@jit
def place(mask, yf, upper, total, r, c, m):
    """Place roll ``r`` in box ``c`` on a card with (uncapped) upper subtotal ``upper`` and
    total ``total``: the new (mask, yf, upper, total, 1 if it earned a Yahtzee bonus)."""
    p, bonus = placement_points(mask, yf, r, c, m)
    total += p + bonus
    if c < N_UPPER:
        _, earned = upper_step(upper, p, m.cap, int(m.upper_bonus))
        total += earned
        upper += p
    if c == m.yahtzee_box:
        yf = 1 if p > 0 else 0
    return mask | (1 << c), yf, upper, total, 1 if bonus > 0 else 0


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
def simulate(n_games, first, seed, stream, E, m, temperature, uniform, totals, uppers, yahtzees,
             bonuses, log):  # fmt: skip
    """Play ``n_games`` solitaire games, games ``first`` to ``first + n_games - 1``, each
    written at its place from ``first`` (``totals[0]`` is game ``first``'s); game ``g``
    uses its own seed, so results depend neither on threads nor on how the games are cut
    into calls. ``uniform`` plays uniformly at random among the legal options."""
    packed, joker, bonus_50, cap, upper_bonus = (
        m.packed,
        m.joker,
        m.joker_bonus,
        m.cap,
        m.upper_bonus,
    )
    T0 = np.empty(TURN_SIZE)
    solve_turn(0, 0, 0, E, packed, joker, bonus_50, cap, upper_bonus, T0[:N_ROWS],
               T0[N_ROWS : N_ROWS + N_MS], T0[N_ROWS + N_MS :])  # fmt: skip
    for j in prange(n_games):
        np.random.seed(game_seed(seed, stream, first + j))
        T = np.empty(TURN_SIZE)
        R, K1, K2 = T[:N_ROWS], T[N_ROWS : N_ROWS + N_MS], T[N_ROWS + N_MS :]
        codes = np.empty(MAX_OPTIONS, dtype=np.int64)
        values = np.zeros(MAX_OPTIONS)
        mask, u, yf, total, upper, n_bonus, five = 0, 0, 0, 0, 0, 0, 0
        for t in range(m.n_boxes):
            if t == 0:
                T[:] = T0  # every game starts in the same state
            else:
                solve_turn(mask, yf, u, E, packed, joker, bonus_50, cap, upper_bonus, R, K1, K2)
            r = throw(0, m)
            step = 0
            if j < log.shape[0]:
                log[j, t, :] = -1
                log[j, t, 0] = r
            rolls_left = ROLLS_PER_TURN - 1
            while True:
                count = turn_options(mask, yf, r, rolls_left, packed, joker, bonus_50, R, K1, K2,
                                     codes, values)  # fmt: skip
                choice = (
                    np.random.randint(0, count) if uniform else pick(values, count, temperature)
                )
                if codes[choice] < KEEP_CODE:
                    break
                r = throw(codes[choice] - KEEP_CODE, m)
                rolls_left -= 1
                if j < log.shape[0]:
                    log[j, t, 1 + 2 * step] = codes[choice] - KEEP_CODE
                    log[j, t, 2 + 2 * step] = r
                step += 1
            c = codes[choice]
            if j < log.shape[0]:
                log[j, t, LOG_BOX] = c
            if c == m.five_box:  # scored five alike there (50, not a scratch)
                five = 1 if m.points[r, c] > 0 else 0
            mask, yf, upper, total, earned = place(mask, yf, upper, total, r, c, m)
            n_bonus += earned
            u = min(upper, m.cap)
        totals[j] = total
        uppers[j] = upper
        yahtzees[j] = five
        bonuses[j] = n_bonus
