"""Building score curves layer by layer (see :mod:`.curves`).

A state's curve needs only the curves of states with one more box filled, so the build
keeps one layer of float curves at a time (as bands: 1 below, 0 above) and hands each
finished layer to the caller, which quantises it into a table or keeps what it needs.
Every curve is a survival curve ``S(n)`` = P(at least ``n`` points still to come); a
distribution is kept as the survival curve of its points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..core import DICE_COUNT, RuleSet
from .tables import (
    N_BOXES,
    N_MASKS,
    N_UPPER,
    UPPER_CAP,
    YAHTZEE_BIT,
    Model,
    dice_tables,
    model,
)

Kind = Literal["target", "distribution"]
N_STATES = N_MASKS * 2 * (UPPER_CAP + 1)
CHUNK = 16384  # states per compiled call: bounds the memory of one layer's dense curves
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]


@dataclass
class Band:
    """One layer's float curves as bands, indexed by state (``start`` into ``values``)."""

    values: npt.NDArray[np.floating]
    start: I64
    lo: I32
    hi: I32


@dataclass(frozen=True)
class Layer:
    """A finished chunk of a layer: its states, their indices and dense survival curves."""

    states: I64  # [n, 3] mask, yf, u
    index: I64  # [n]
    curves: npt.NDArray[np.floating]  # [n, width], S(n)
    widths: I64


@cache
def subtotals(upper_mask: int) -> tuple[int, ...]:
    """The capped upper subtotals a card with these upper boxes filled can have."""
    found = {0}
    for c in range(N_UPPER):
        if upper_mask >> c & 1:
            found = {min(UPPER_CAP, a + (c + 1) * k) for a in found for k in range(DICE_COUNT + 1)}
    return tuple(sorted(found))


def layer_states(filled: int, base_mask: int = 0) -> I64:
    """Every reachable turn-start state with ``filled`` boxes filled, ``base_mask`` among them."""
    rows = [
        (mask, yf, u)
        for mask in range(N_MASKS)
        if mask.bit_count() == filled and mask & base_mask == base_mask
        for yf in range(2 if mask & YAHTZEE_BIT else 1)
        for u in subtotals(mask & ((1 << N_UPPER) - 1))
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def box_maxima(m: Model) -> list[int]:
    return [max(int(m.points[:, c].max()), int(m.joker[:, :, c].max())) for c in range(N_BOXES)]


def most_points(states: I64, m: Model) -> I64:
    """An upper bound on the points still to come from each state."""
    best = np.array(box_maxima(m))
    mask, yf, u = states[:, 0], states[:, 1], states[:, 2]
    bits = (mask[:, None] >> np.arange(N_BOXES)) & 1
    open_ = 1 - bits
    total = (open_ * best).sum(axis=1)
    upper_room = (open_[:, :N_UPPER] * (DICE_COUNT * np.arange(1, N_UPPER + 1))).sum(axis=1)
    total += np.where((u < UPPER_CAP) & (u + upper_room >= UPPER_CAP), int(m.upper_bonus), 0)
    n_open = open_.sum(axis=1)
    yahtzee_open = (mask & YAHTZEE_BIT) == 0
    bonus_turns = np.where(yahtzee_open, n_open - 1, np.where(yf == 1, n_open, 0))
    return np.asarray(total + m.joker_bonus * np.maximum(bonus_turns, 0), dtype=np.int64)


def pad_for(m: Model) -> int:
    """The most points one placement adds on top of its row's gain, plus one."""
    return max(box_maxima(m)) + m.joker_bonus + 1


def _bands(curves: npt.NDArray[np.floating], eps: float) -> tuple[I64, I64]:
    """Per row: the first point where the curve drops below 1 - eps (from 1 on) and the
    last where it is above eps; outside, it is taken as 1 and 0."""
    width = curves.shape[1]
    cols = np.arange(width)
    below_one = (curves < 1.0 - eps) & (cols >= 1)
    lo = np.where(below_one.any(axis=1), below_one.argmax(axis=1), width)
    above_zero = curves > eps
    hi = np.where(above_zero.any(axis=1), width - 1 - above_zero[:, ::-1].argmax(axis=1), 0)
    return lo, np.maximum(hi, lo - 1)


def pack(curves: npt.NDArray[np.generic], lo: I64, hi: I64) -> tuple[npt.NDArray[np.generic], I64]:
    """The bands of the rows, one after the other, and where each starts."""
    cols = np.arange(curves.shape[1])
    inside = (cols >= lo[:, None]) & (cols <= hi[:, None])
    lengths = hi - lo + 1
    start = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    return curves[inside], start


def build_layers(
    kind: Kind,
    rules: RuleSet,
    *,
    cap: int | None,
    base_mask: int = 0,
    dtype: type = np.float64,
    eps: float = 0.0,
    expected: F64 | None = None,
    progress: Progress | None = None,
) -> Iterator[Layer]:
    """Solve the curves of every state whose card holds the boxes of ``base_mask``, from
    the full card back to the base, yielding each chunk of each layer as it is done.

    ``cap``: points still to come beyond which curves are not computed (``None``: every
    possible point). ``eps``: curves are kept as 1 or 0 within ``eps`` of them. A
    distribution needs the expected-value table ``expected`` (its policy)."""
    from . import curves as kernels  # noqa: PLC0415 - numba loads only to build
    from .compiling import compile_aside  # noqa: PLC0415

    compile_aside("curves")
    m = model(rules)
    pad = pad_for(m)
    lo = np.zeros(N_STATES, dtype=np.int32)
    hi = np.zeros(N_STATES, dtype=np.int32)
    start = np.zeros(N_STATES, dtype=np.int64)
    probability = dice_tables().probability
    table = np.zeros((N_MASKS, 2, UPPER_CAP + 1)) if expected is None else expected
    first = base_mask.bit_count()
    layers = range(N_BOXES, first - 1, -1)
    if progress:
        progress(0, len(layers))
    prev: npt.NDArray[np.floating] = np.zeros(1, dtype=dtype)
    for done, filled in enumerate(layers, start=1):
        states = layer_states(filled, base_mask)
        index = (states[:, 0] * 2 + states[:, 1]) * (UPPER_CAP + 1) + states[:, 2]
        widths = most_points(states, m) + 1
        if cap is not None:
            widths = np.minimum(widths, cap + 1)
        parts: list[npt.NDArray[np.generic]] = []
        layer_lo, layer_hi, layer_start, used = [], [], [], 0
        for at in range(0, len(states), CHUNK):
            chunk, idx, w = states[at : at + CHUNK], index[at : at + CHUNK], widths[at : at + CHUNK]
            out: npt.NDArray[np.floating] = np.zeros((len(chunk), int(w.max())), dtype=dtype)
            if filled == N_BOXES:
                out[:, 0] = 1.0
            elif kind == "target":
                kernels.survival_layer(chunk, w, m, pad, prev, start, lo, hi, out)
            else:
                kernels.pmf_layer(chunk, w, table, m, probability, pad, prev, start, lo, hi, out)
                out = _survival_of(out, w, cap)
            yield Layer(chunk, idx, out, w)
            a, b = _bands(out, eps)
            values, offsets = pack(out, a, b)
            parts.append(values)
            layer_lo.append(a)
            layer_hi.append(b)
            layer_start.append(offsets + used)
            used += len(values)
        # the layer done becomes the one the next layer reads (indices of other states
        # are left as they were: the next layer reads only this one)
        lo[index] = np.concatenate(layer_lo)
        hi[index] = np.concatenate(layer_hi)
        start[index] = np.concatenate(layer_start)
        prev = np.concatenate(parts).astype(dtype) if parts else np.zeros(1, dtype=dtype)
        if progress:
            progress(done, len(layers))


def _survival_of(
    pmf: npt.NDArray[np.floating], widths: I64, cap: int | None
) -> npt.NDArray[np.floating]:
    """``S(n) = P(at least n)`` of each row of point probabilities; in a row cut at the
    cap, the mass left out counts as its last point."""
    tail = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    if cap is not None:
        cut = widths == cap + 1
        tail[cut] += 1.0 - tail[cut, :1]
    return tail
