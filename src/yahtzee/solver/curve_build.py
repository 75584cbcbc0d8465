"""Building score curves layer by layer (see `curves`).

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

from ..core import DICE_COUNT, Edition, RuleSet
from .tables import (
    N_UPPER,
    CardShape,
    Model,
    card_shape,
    dice_tables,
    edition_card,
    model,
)

Kind = Literal["target", "distribution"]
AMERICAN = edition_card(Edition.american())
"""The card a shape defaults to below (the callers of old, all American)."""
CHUNK = 16384  # states per compiled call: bounds the memory of one layer's dense curves
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Layer:
    """A finished chunk of a layer: its states, their indices and dense survival curves."""

    states: I64  # [n, 3] mask, yf, u
    index: I64  # [n]
    curves: npt.NDArray[np.floating]  # [n, width], S(n)
    widths: I64


def n_states(shape: CardShape) -> int:
    """How many state indices a card's tables have (see `state_index`)."""
    masks, yfs, subtotal_count = shape.table_shape
    return masks * yfs * subtotal_count


@cache
def subtotals(upper_mask: int, cap: int = AMERICAN.cap) -> tuple[int, ...]:
    """The upper subtotals, capped at ``cap``, a card with these upper boxes filled can have."""
    found = {0}
    for c in range(N_UPPER):
        if upper_mask >> c & 1:
            found = {min(cap, a + (c + 1) * k) for a in found for k in range(DICE_COUNT + 1)}
    return tuple(sorted(found))


def layer_states(filled: int, base_mask: int = 0, shape: CardShape = AMERICAN) -> I64:
    """Every reachable turn-start state with ``filled`` boxes filled, ``base_mask`` among them."""
    ybit = 1 << shape.yahtzee_box if shape.yahtzee_box >= 0 else 0
    rows = [
        (mask, yf, u)
        for mask in shape.masks(filled).tolist()
        if mask & base_mask == base_mask
        for yf in range(2 if mask & ybit else 1)
        for u in subtotals(mask & ((1 << N_UPPER) - 1), shape.cap)
    ]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def state_index(states: I64, shape: CardShape = AMERICAN) -> I64:
    """The index of each state ``(mask, yf, u)`` in the tables (as `curves.state_index`)."""
    _, yfs, subtotal_count = shape.table_shape
    return (states[:, 0] * yfs + states[:, 1]) * subtotal_count + states[:, 2]


def canonical(states: I64, shape: CardShape = AMERICAN) -> I64:
    """Each state with its upper subtotal as 0 where the upper bonus is out of reach (the
    subtotal plus the most the open upper boxes can add stays under the threshold): from
    there the future does not depend on the subtotal, so every such state has the same
    curve, bit for bit, and only one of them is worked out (a third of the states)."""
    mask, u = states[:, 0], states[:, 2]
    open_upper = 1 - ((mask[:, None] >> np.arange(N_UPPER)) & 1)
    room = (open_upper * (DICE_COUNT * np.arange(1, N_UPPER + 1))).sum(axis=1)
    out = states.copy()
    out[:, 2] = np.where(u + room < shape.cap, 0, u)
    return out


def box_maxima(m: Model) -> list[int]:
    return [max(int(m.points[:, c].max()), int(m.joker[:, :, c].max())) for c in range(m.n_boxes)]


def most_points(states: I64, m: Model) -> I64:
    """An upper bound on the points still to come from each state."""
    best = np.array(box_maxima(m))
    mask, yf, u = states[:, 0], states[:, 1], states[:, 2]
    bits = (mask[:, None] >> np.arange(m.n_boxes)) & 1
    open_ = 1 - bits
    total = (open_ * best).sum(axis=1)
    upper_room = (open_[:, :N_UPPER] * (DICE_COUNT * np.arange(1, N_UPPER + 1))).sum(axis=1)
    total += np.where((u < m.cap) & (u + upper_room >= m.cap), int(m.upper_bonus), 0)
    if m.yahtzee_box < 0:  # no extra-Yahtzee bonus
        return np.asarray(total, dtype=np.int64)
    n_open = open_.sum(axis=1)
    yahtzee_open = (mask & (1 << m.yahtzee_box)) == 0
    bonus_turns = np.where(yahtzee_open, n_open - 1, np.where(yf == 1, n_open, 0))
    return np.asarray(total + m.joker_bonus * np.maximum(bonus_turns, 0), dtype=np.int64)


def pad_for(m: Model) -> int:
    """The most points one placement adds on top of its row's gain, plus one."""
    return max(box_maxima(m)) + m.joker_bonus + 1


def bands(curves: npt.NDArray[np.floating], widths: I64, eps: float) -> tuple[I32, I32]:
    """Per row: the first point where the curve drops below 1 - eps (from 1 on) and the
    last where it is above eps; outside, it is taken as 1 and 0."""
    from . import curves as kernels  # noqa: PLC0415 - numba loads only to build

    lo = np.empty(len(curves), dtype=np.int32)
    hi = np.empty(len(curves), dtype=np.int32)
    kernels.find_bands(curves, widths, eps, lo, hi)
    return lo, hi


def offsets_of(lo: I32, hi: I32, used: int = 0) -> tuple[I64, int]:
    """Where each band starts when they are laid one after the other from ``used``, and
    where the next one would."""
    lengths = hi.astype(np.int64) - lo + 1
    ends = np.cumsum(lengths) + used
    return ends - lengths, int(ends[-1]) if len(ends) else used


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
    the full card back to the base, yielding each chunk of each layer as it is done (only
    the `canonical` states: the others have the same curves).

    ``cap``: points still to come beyond which curves are not computed (``None``: every
    possible point). ``eps``: curves are kept as 1 or 0 within ``eps`` of them (and a
    target curve is not worked out past where it falls to ``eps``). A distribution needs
    the expected-value table ``expected`` (its policy)."""
    from . import curves as kernels  # noqa: PLC0415 - numba loads only to build
    from .compiling import compile_aside  # noqa: PLC0415

    compile_aside("curves")
    m, shape = model(rules), card_shape(rules)
    pad = pad_for(m)
    lo = np.zeros(n_states(shape), dtype=np.int32)
    hi = np.zeros(n_states(shape), dtype=np.int32)
    start = np.zeros(n_states(shape), dtype=np.int64)
    probability = dice_tables().probability
    smaller = kernels.smaller_keeps(m.remove, dice_tables().size)
    table = np.zeros(shape.table_shape) if expected is None else expected
    first = base_mask.bit_count()
    layers = range(shape.n_boxes, first - 1, -1)
    if progress:
        progress(0, len(layers))
    prev: npt.NDArray[np.floating] = np.zeros(1, dtype=dtype)
    cut = -1 if cap is None else cap + 1
    for done, filled in enumerate(layers, start=1):
        every = layer_states(filled, base_mask, shape)
        alias = state_index(canonical(every, shape), shape)
        states = every[alias == state_index(every, shape)]
        index = state_index(states, shape)
        widths = most_points(states, m) + 1
        if cap is not None:
            widths = np.minimum(widths, cap + 1)
        parts: list[npt.NDArray[np.generic]] = []
        used = 0
        for at in range(0, len(states), CHUNK):
            chunk, idx, w = states[at : at + CHUNK], index[at : at + CHUNK], widths[at : at + CHUNK]
            out: npt.NDArray[np.floating] = np.zeros((len(chunk), int(w.max())), dtype=dtype)
            if filled == shape.n_boxes:
                out[:, 0] = 1.0
            elif kind == "target":
                window = np.zeros((len(chunk), 2), dtype=np.int64)
                kernels.survival_layer(chunk, w, m, pad, prev, start, lo, hi, eps, smaller,
                                       probability.astype(dtype), out, window)  # fmt: skip
            else:
                kernels.pmf_layer(chunk, w, table, m, probability, pad, prev, start, lo, hi, cut,
                                  out)  # fmt: skip
            yield Layer(chunk, idx, out, w)
            a, b = bands(out, w, eps)
            offsets, after = offsets_of(a, b, used)
            values: npt.NDArray[np.floating] = np.empty(after - used, dtype=dtype)
            kernels.copy_bands(out, a, b, offsets - used, values)
            parts.append(values)
            lo[idx], hi[idx], start[idx] = a, b, offsets
            used = after
        # the layer done becomes the one the next layer reads (indices of other states
        # are left as they were: the next layer reads only this one)
        every_index = state_index(every, shape)
        lo[every_index], hi[every_index], start[every_index] = lo[alias], hi[alias], start[alias]
        prev = np.concatenate(parts) if parts else np.zeros(1, dtype=dtype)
        if progress:
            progress(done, len(layers))
