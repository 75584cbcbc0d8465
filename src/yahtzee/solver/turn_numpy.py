"""One state's turn in plain numpy: the same values as the compiled kernels, no compiling.

A fresh install has no compiled kernels, and compiling them takes many seconds. The
advisor, the bots and the reviews need only one turn at a time, which numpy solves in
well under a millisecond from the same `Model` arrays, so they answer at
once while the compiled kernels are built (or are never needed). ``tests/solver`` checks
that both give the same values.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from ..core import DICE_COUNT, FACE_COUNT
from .layout import (
    KEEP,
    N_ROWS,
    NEG,
    ROW_DEAD,
    ROW_LOWER,
    ROW_UPPER,
    ROW_YAHTZEE_0,
    ROW_YAHTZEE_50,
    SCORE,
    UPPER_ROWS,
)
from .tables import N_MULTISETS, N_ROLLS, N_UPPER, ROLL_BASE, TurnScoring, dice_tables
from .transition import box_rows, closed_boxes, next_state

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
Options = tuple[I64, I64, F64]
"""Per option: its kind (``SCORE`` or ``KEEP``), its box or keep index, and its value."""


@cache
def _by_size() -> tuple[I64, ...]:
    """The multiset indices of each size 0 to 5."""
    size = dice_tables().size
    return tuple(np.flatnonzero(size == s) for s in range(DICE_COUNT + 1))


@cache
def _rows_and_adds(m: TurnScoring) -> tuple[I64, F64]:
    """Per roll and box (no Joker): the row of ``R`` a placement lands on, and the points
    added on top of that row's value."""
    rows = np.empty((N_ROLLS, m.n_boxes), dtype=np.int64)
    adds = np.zeros((N_ROLLS, m.n_boxes))
    for c in range(m.n_boxes):
        points = m.points[:, c]
        if c < N_UPPER:
            rows[:, c] = ROW_UPPER + UPPER_ROWS * c + m.counts[:, c]
        elif c == m.yahtzee_box:
            rows[:, c] = np.where(points > 0, ROW_YAHTZEE_50, ROW_YAHTZEE_0)
            adds[:, c] = points
        else:
            rows[:, c] = ROW_LOWER + c
            adds[:, c] = points
    return rows, adds


def _open_boxes(mask: int, m: TurnScoring) -> list[int]:
    """The boxes that may be filled now (with boxes filled in order, the first open one)."""
    closed = closed_boxes(mask, m.n_boxes, m.ordered)
    return [c for c in range(m.n_boxes) if not closed >> c & 1]


def _joker_possible(mask: int, m: TurnScoring) -> bool:
    """Whether the card has a Yahtzee box and it is filled (see `kernel`)."""
    return m.yahtzee_box >= 0 and bool(mask >> m.yahtzee_box & 1)


def next_rows(mask: int, yf: int, u: int, E: F64, m: TurnScoring) -> F64:
    """The value after each placement row: points, upper bonus and the next state."""
    R = np.full(N_ROWS, NEG)
    for c in _open_boxes(mask, m):
        for k in range(box_rows(c, m.yahtzee_box)):
            row, nm, nyf, nu, gain = next_state(mask, yf, u, c, k, m.cap, m.upper_bonus,
                                                m.yahtzee_box)  # fmt: skip
            R[row] = gain + E[nm, nyf, nu]
    R[ROW_DEAD] = NEG
    return R


def candidates(mask: int, yf: int, r: int, m: TurnScoring) -> tuple[I64, I64, F64]:
    """The legal placements of roll ``r``: boxes, their rows of ``R`` and points added."""
    if _joker_possible(mask, m):
        faces = np.flatnonzero(m.yahtzee_roll == r)
        if faces.size:
            return _joker_candidates(mask, yf, int(faces[0]), m)
    rows, adds = _rows_and_adds(m)
    boxes = np.array(_open_boxes(mask, m), dtype=np.int64)
    return boxes, rows[r, boxes], adds[r, boxes]


def _joker_candidates(mask: int, yf: int, f: int, m: TurnScoring) -> tuple[I64, I64, F64]:
    bonus = m.joker_bonus if yf == 1 else 0
    points = m.joker(mask, f).astype(np.int64)
    boxes = np.flatnonzero(points >= 0).astype(np.int64)
    upper = boxes < N_UPPER
    faces = boxes + 1
    rows = np.where(
        upper, ROW_UPPER + UPPER_ROWS * boxes + points[boxes] // faces, ROW_LOWER + boxes
    )
    adds = np.where(upper, bonus, points[boxes] + bonus).astype(np.float64)
    return boxes, rows.astype(np.int64), adds


def _final_values(mask: int, yf: int, R: F64, m: TurnScoring, A: F64) -> None:
    rows, adds = _rows_and_adds(m)
    open_boxes = _open_boxes(mask, m)
    A[ROLL_BASE:] = (R[rows[:, open_boxes]] + adds[:, open_boxes]).max(axis=1)
    if _joker_possible(mask, m):
        for f in range(FACE_COUNT):
            _, jrows, jadds = _joker_candidates(mask, yf, f, m)
            A[ROLL_BASE + m.yahtzee_roll[f]] = (R[jrows] + jadds).max() if jrows.size else NEG


def _keep_means(A: F64, m: TurnScoring) -> None:
    """Every keep of under five dice: the mean over the next die's face."""
    for size in range(DICE_COUNT - 1, -1, -1):
        keeps = _by_size()[size]
        A[keeps] = A[m.add[keeps]].mean(axis=1)


def _sub_maxes(A: F64, m: TurnScoring) -> None:
    """``A[s]`` becomes the max of ``A`` over every sub-multiset of ``s``."""
    for size in range(1, DICE_COUNT + 1):
        keeps = _by_size()[size]
        A[keeps] = np.maximum(A[keeps], A[m.remove[keeps]].max(axis=1))


def turn_tables(mask: int, yf: int, u: int, E: F64, m: TurnScoring) -> tuple[F64, F64, F64]:
    """``R`` (next-state values per placement row), ``K1`` and ``K2`` (keep values with
    one and two rolls left; ``K1[ROLL_BASE + r]`` stands on roll ``r``), as columns, like
    `policy.turn_tables`."""
    R = next_rows(mask, yf, u, E, m)
    A = np.empty(N_MULTISETS)
    _final_values(mask, yf, R, m, A)
    _keep_means(A, m)
    K1 = A.copy()
    _sub_maxes(A, m)
    _keep_means(A, m)
    return R[:, None], K1[:, None], A[:, None]


def option_values(
    mask: int, yf: int, r: int, rolls_left: int, m: TurnScoring, R: F64, K1: F64, K2: F64
) -> Options:
    """Every distinct option for roll ``r``, in the order of `policy.option_values`:
    boxes first (scorecard order), then keeps of under five dice."""
    boxes, rows, adds = candidates(mask, yf, r, m)
    kinds, ids, values = [np.full(boxes.size, SCORE)], [boxes], [R[rows, 0] + adds]
    if rolls_left > 0:
        keeps = m.sub_keeps[r]
        keeps = keeps[keeps >= 0].astype(np.int64)
        kinds.append(np.full(keeps.size, KEEP))
        ids.append(keeps)
        values.append((K1 if rolls_left == 1 else K2)[keeps, 0])
    return np.concatenate(kinds), np.concatenate(ids), np.concatenate(values)
