"""Where a placement leads: the one transition every kernel and the numpy turn use.

A turn-start state is (filled boxes ``mask``, ``yf`` = the Yahtzee box holds 50, upper
subtotal ``u`` capped at the bonus threshold ``cap``). Filling box ``c`` sets its bit; an
upper box adds its points to the subtotal and earns the upper bonus when the subtotal
reaches the cap from below; the Yahtzee box ``ybox`` sets ``yf`` (a card whose edition has
no extra-Yahtzee rules passes ``ybox = -1``: ``yf`` stays 0, its five-of-a-kind box is a
box like the others).

Plain Python, no compiler to import: the numpy turn calls these as they are, and
`kernel` registers them with numba, which compiles them inline into every kernel
that calls them (so a kernel runs as if it wrote them out itself). numba's cache looks
at a kernel's own file only: after editing this one, clear ``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

from .layout import ROW_LOWER, ROW_UPPER, ROW_YAHTZEE_0, ROW_YAHTZEE_50, UPPER_ROWS
from .tables import N_UPPER

YAHTZEE_ROWS = ROW_YAHTZEE_50 - ROW_YAHTZEE_0 + 1  # the Yahtzee box zeroed or scored


def upper_step(u: int, p: int, cap: int, bonus: float) -> tuple[int, float]:
    """An upper box filled with ``p`` points on a subtotal of ``u`` (capped or not): the
    subtotal after it, capped at ``cap``, and the upper bonus it earns: ``bonus`` when the
    subtotal reaches ``cap`` from below, else 0 (of ``bonus``'s type)."""
    after = u + p
    if after < cap:
        return after, 0
    return cap, (bonus if u < cap else 0)


def closed_boxes(mask: int, n_boxes: int, ordered: int) -> int:
    """The boxes that may not be filled this turn, as a mask: the filled ones, and with
    boxes filled in order (``ordered``) every box but the first open one."""
    if ordered:
        return ((1 << n_boxes) - 1) ^ (~mask & (mask + 1))
    return mask


def box_rows(c: int, ybox: int) -> int:
    """How many rows box ``c`` has in a turn's table of next states (see `layout`)."""
    if c < N_UPPER:
        return UPPER_ROWS
    return YAHTZEE_ROWS if c == ybox else 1


def next_state(  # noqa: PLR0917 - scalars, positional as every kernel passes them
    mask: int, yf: int, u: int, c: int, k: int, cap: int, bonus: float, ybox: int
) -> tuple[int, int, int, int, float]:
    """Box ``c`` filled from turn-start state ``(mask, yf, u)``, on its row ``k`` (from 0
    to ``box_rows(c, ybox) - 1``: an upper box holding ``k`` dice of its face, the Yahtzee box
    scored for ``k = 1`` and zeroed for ``k = 0``): the row of the turn's table, the next state
    ``(mask, yf, u)``, and the points gained before the roll's own points (an upper box:
    all its points, the upper bonus included; other boxes: none)."""
    filled = mask | (1 << c)
    if c < N_UPPER:
        p = (c + 1) * k
        after, earned = upper_step(u, p, cap, bonus)
        return ROW_UPPER + UPPER_ROWS * c + k, filled, yf, after, p + earned
    if c == ybox:
        return ROW_YAHTZEE_0 + k, filled, k, u, 0
    return ROW_LOWER + c, filled, yf, u, 0
