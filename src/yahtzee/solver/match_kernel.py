"""One compiled loop of many games turn by turn between bots (numba): expected-value
bots of any level, the ``winning`` bot on its score-curve tables (`win_kernel`),
and the interim ``winning`` bot on what ships (`interim_kernel`)."""

from __future__ import annotations

import numpy as np
from numba import prange

from ..core import ROLLS_PER_TURN
from .interim_kernel import INTERIM, normal_turn, rival_normal
from .kernel import jit_parallel
from .layout import KEEP_CODE, MAX_CANDIDATES, MAX_OPTIONS, N_MS, N_ROWS, TURN_SIZE
from .policy import game_seed, pick, place, solve_turn, throw, turn_options
from .win_kernel import MOST_ADD, MOST_TOTAL, WINNING, rival_weights, value_options, value_turn


@jit_parallel
def simulate_match(n_games, first, seed, stream, kinds, temperatures, uniform, tables, m, dl, ds,
                   dlo, dhi, tl, ts, tlo, thi, cap, E, D, start, totals, uppers_out, yahtzees,
                   bonuses):  # fmt: skip
    """Play ``n_games`` games of ``n`` seats turn by turn (seat ``i`` plays by
    ``kinds[i]``: ``WINNING`` (the score-curve tables ``d*`` and ``t*``), ``INTERIM``
    (the flat expected-value and variance tables ``E`` and ``D``), or the index of the
    table it plays by, with its temperature); the seat that starts rotates from game to
    game; every seat starts on the card ``start`` (mask, yf, upper subtotal, total).
    ``totals[g, i]`` receives seat ``i``'s total, and the others its upper subtotal,
    whether its Yahtzee box holds 50 and its bonuses. The games are ``first`` to
    ``first + n_games - 1``, each written at its row from ``first`` (each game's own seed:
    the results do not depend on how the games are cut into calls)."""
    n = kinds.shape[0]
    for j in prange(n_games):
        g = first + j
        np.random.seed(game_seed(seed, stream, g))
        masks = np.full(n, start[0], dtype=np.int64)
        yfs = np.full(n, start[1], dtype=np.int64)
        uppers = np.full(n, start[2], dtype=np.int64)
        us = np.full(n, min(start[2], m.cap), dtype=np.int64)
        score = np.full(n, start[3], dtype=np.int64)
        n_bonus = np.zeros(n, dtype=np.int64)
        fives = yfs.copy()  # the five-of-a-kind box holds 50 (as the start card's yf says)
        rounds = m.n_boxes
        for c in range(m.n_boxes):
            rounds -= start[0] >> c & 1
        T = np.empty(TURN_SIZE)
        R, K1, K2 = T[:N_ROWS], T[N_ROWS : N_ROWS + N_MS], T[N_ROWS + N_MS :]
        Q = np.empty((N_ROWS, MOST_ADD))
        succ = np.empty(N_ROWS, dtype=np.int64)
        gain = np.empty(N_ROWS, dtype=np.int64)
        rows = np.empty(MAX_CANDIDATES, dtype=np.int64)
        adds = np.empty(MAX_CANDIDATES)
        cats = np.empty(MAX_CANDIDATES, dtype=np.int64)
        codes = np.empty(MAX_OPTIONS, dtype=np.int64)
        values = np.zeros(MAX_OPTIONS)
        size = MOST_TOTAL + cap + 8
        cdf = np.empty(size)
        w = np.empty(size)
        C = np.empty(size + 1)
        for _ in range(rounds):
            for step in range(n):
                i = (g + step) % n
                mask, yf, u = masks[i], yfs[i], us[i]
                kind = kinds[i]
                if kind == WINNING:
                    xmax = rival_weights(i, n, masks, yfs, us, score, dl, ds, dlo, dhi, cap, m,
                                         cdf, w, C)  # fmt: skip
                    value_turn(mask, yf, u, score[i], w, C, xmax, tl, ts, tlo, thi, m, succ,
                               gain, Q, K1, K2, rows, adds, cats)  # fmt: skip
                elif kind == INTERIM:
                    mu, var = rival_normal(i, n, masks, yfs, us, score, E, D, m)
                    normal_turn(mask, yf, u, score[i], mu, var, E, D, m, succ, gain, Q, K1, K2,
                                rows, adds, cats)  # fmt: skip
                else:
                    solve_turn(mask, yf, u, tables[kind], m.packed, m.joker, m.joker_bonus,
                               m.cap, m.upper_bonus, R, K1, K2)  # fmt: skip
                r = throw(0, m)
                rolls_left = ROLLS_PER_TURN - 1
                while True:
                    if kind in (WINNING, INTERIM):
                        count = value_options(mask, yf, r, rolls_left, m, Q, K1, K2, rows, adds,
                                              cats, codes, values)  # fmt: skip
                        choice = pick(values, count, 0.0)
                    else:
                        count = turn_options(mask, yf, r, rolls_left, m.packed, m.joker,
                                             m.joker_bonus, R, K1, K2, codes, values)  # fmt: skip
                        if uniform[i]:
                            choice = np.random.randint(0, count)
                        else:
                            choice = pick(values, count, temperatures[i])
                    if codes[choice] < KEEP_CODE:
                        break
                    r = throw(codes[choice] - KEEP_CODE, m)
                    rolls_left -= 1
                c = codes[choice]
                if c == m.five_box:  # scored five alike there (50, not a scratch)
                    fives[i] = 1 if m.points[r, c] > 0 else 0
                mask, yf, upper, total, earned = place(mask, yf, uppers[i], score[i], r, c, m)
                masks[i], yfs[i], uppers[i], score[i] = mask, yf, upper, total
                n_bonus[i] += earned
                us[i] = min(upper, m.cap)
        for i in range(n):
            totals[j, i] = score[i]
            uppers_out[j, i] = uppers[i]
            yahtzees[j, i] = fives[i]
            bonuses[j, i] = n_bonus[i]
