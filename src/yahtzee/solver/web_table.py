"""The advisor's table file for the page: a rule set's solver table, compact.

The page advises offline from this file (``static/advisor_table.js`` reads it). It holds
only the states a game can reach (`reachable_states`: ``(mask, yf, u)`` where ``yf`` is 1
only with the Yahtzee box filled and ``u`` a capped sum the filled upper boxes can hold;
536,448 of the American table's 1,048,576, 1,430,528 of Yatzy's 2,097,152: its card has
no ``yf``; under ``ordered`` rules only the masks of the first boxes filled), in the
table's own order (mask, then ``yf``, then ``u``), each value in fixed point (a 65536th
of a point: at most 7.6e-6 off, well inside the 1e-4 the advice needs), as the difference
from the value before it (the first from 0), zigzagged (0, -1, 1, -2 ... as 0, 1, 2,
3 ...) into an unsigned 32-bit integer, and byte-shuffled: the low bytes of every value,
then the second bytes, and so on. Small differences then give long runs of zero bytes,
which gzip shrinks to about 780 KB for the official rules (the float32 values would take
1.1 MB) and 2.1 MB for Yatzy's.

The file is one line of JSON (the header), a newline, and the payload::

    {"format": "yahtzee-advisor-table", "version": 1, "solver_version": 1,
     "scoring": "joker=forced;bonus=100", "count": 536448, "scale": 65536,
     "cap": 63, "sha256": "<hex digest of the payload>"}

``cap`` is the capped upper subtotal (the table's last ``u``): with it and the card's
shape, a reader knows which states are reachable without any rule of its own. The card's
shape is the American one (13 boxes, the Yahtzee box the 12th, filled in any order) unless
the header says otherwise (so the American files are unchanged): ``"boxes": 15`` (the
card's boxes, the six upper ones first), ``"yahtzee_box": null`` (no extra-Yahtzee rules:
no ``yf``; else the box's index), ``"ordered": true`` (filled top to bottom). A reader
refuses a file whose header or payload does not match exactly (`CorruptTable`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..core import DICE_COUNT, Category, RuleSet
from .cache import CorruptTable
from .solver import SOLVER_VERSION
from .tables import N_BOXES, N_UPPER, UPPER_CAP, card_shape

FORMAT = "yahtzee-advisor-table"
VERSION = 1
"""The file format's version (a change of layout or encoding renames every address)."""
SCALE = 1 << 16
"""Fixed point: a value is stored in 65536ths of a point."""
_WIDTH = 4  # bytes per value
_MAX_HEADER = 1024  # bytes: a header longer than this is not one


@dataclass(frozen=True)
class Shape:
    """A table file's card: its number of boxes (the six upper ones first), the index of
    the Yahtzee box whose 50 the turn-start state tells (None: no extra-Yahtzee rules, no
    ``yf``), whether boxes are filled top to bottom, and the upper subtotal's cap. The
    defaults are the American card's, which a header leaves unsaid."""

    boxes: int = N_BOXES
    yahtzee_box: int | None = int(Category.YAHTZEE)
    ordered: bool = False
    cap: int = UPPER_CAP

    @classmethod
    def of(cls, rules: RuleSet) -> Shape:
        card = card_shape(rules)
        ybox = card.yahtzee_box if card.yahtzee_box >= 0 else None
        return cls(card.n_boxes, ybox, card.ordered, card.cap)

    @property
    def table_shape(self) -> tuple[int, int, int]:
        """The solver's table of this card (``solver.table_shape``)."""
        return (1 << self.boxes, 1 if self.yahtzee_box is None else 2, self.cap + 1)

    def to_dict(self) -> dict[str, object]:
        """The header's fields of the shape: those that are not the American card's."""
        found: dict[str, object] = {}
        if self.boxes != N_BOXES:
            found["boxes"] = self.boxes
        if self.yahtzee_box != Shape.yahtzee_box:
            found["yahtzee_box"] = self.yahtzee_box
        if self.ordered:
            found["ordered"] = True
        return found


def reachable_states(rules: RuleSet | None = None) -> npt.NDArray[np.bool_]:
    """``[mask, yf, u]`` of the rules' table (the official rules': the American card):
    whether a game can reach the state. ``yf`` is 1 only with the Yahtzee box filled;
    ``u`` is a capped sum that the filled upper boxes can hold (each box 0 to 5 dice of
    its face); under ``ordered`` only the masks of the first boxes. Advice on a reachable
    state reads reachable states only."""
    return _reachable(Shape.of(rules or RuleSet.official()))


@cache
def _reachable(shape: Shape) -> npt.NDArray[np.bool_]:
    cap = shape.cap
    uppers = 1 << N_UPPER
    sums = np.zeros((uppers, cap + 1), dtype=bool)  # by the filled upper boxes alone
    sums[0, 0] = True
    for upper in range(1, uppers):
        low = upper & -upper  # the lowest box filled
        rest = sums[upper ^ low]
        face = low.bit_length()
        for dice in range(DICE_COUNT + 1):
            points = dice * face
            shifted = np.zeros_like(rest)
            shifted[points:] = rest[: cap + 1 - points]
            shifted[cap] |= rest[cap + 1 - points :].any()
            sums[upper] |= shifted
    masks = np.arange(1 << shape.boxes)
    found = np.zeros(shape.table_shape, dtype=bool)
    found[:, 0, :] = sums[masks & (uppers - 1)]
    if shape.ordered:  # the first boxes filled, none after an open one
        found[(masks & (masks + 1)) != 0] = False
    if shape.yahtzee_box is not None:
        found[:, 1, :] = found[:, 0, :] & (masks >> shape.yahtzee_box & 1 != 0)[:, None]
    return found


@dataclass(frozen=True)
class Header:
    """What a table file says about itself."""

    scoring: str
    count: int
    sha256: str
    solver_version: int = SOLVER_VERSION
    version: int = VERSION
    scale: int = SCALE
    shape: Shape = Shape()

    @property
    def cap(self) -> int:
        return self.shape.cap

    def to_dict(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "version": self.version,
            "solver_version": self.solver_version,
            "scoring": self.scoring,
            "count": self.count,
            "scale": self.scale,
            "cap": self.cap,
            **self.shape.to_dict(),
            "sha256": self.sha256,
        }


def encode(table: npt.NDArray[np.float64], rules: RuleSet) -> bytes:
    """The file of ``rules``' solver table (shape ``solver.table_shape(rules)``)."""
    shape = Shape.of(rules)
    if table.shape != shape.table_shape:
        raise ValueError(f"a solver table has shape {shape.table_shape}, not {table.shape}")
    values = np.asarray(table, dtype=np.float64)[_reachable(shape)]
    if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() * SCALE >= 1 << 31:
        raise ValueError("a solver table's values are points from 0 to 32767")
    fixed = np.rint(values * SCALE).astype(np.int64)
    deltas = np.diff(fixed, prepend=0)
    zigzag = ((deltas << 1) ^ (deltas >> 63)).astype("<u4")
    payload = zigzag.view(np.uint8).reshape(-1, _WIDTH).T.tobytes()
    digest = hashlib.sha256(payload).hexdigest()
    header = Header(rules.scoring_key, int(fixed.size), digest, shape=shape)
    return json.dumps(header.to_dict()).encode() + b"\n" + payload


def read_header(data: bytes) -> tuple[Header, bytes]:
    """The file's header and its payload, checked (`CorruptTable` says what is wrong)."""
    line, newline, _ = data[: _MAX_HEADER + 1].partition(b"\n")
    try:
        raw = json.loads(line) if newline else None
    except (ValueError, UnicodeDecodeError):
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise CorruptTable("not an advisor table file")
    if raw.get("version") != VERSION:
        raise CorruptTable(f"an advisor table file of format version {raw.get('version')!r}")
    try:
        header = Header(
            scoring=str(raw["scoring"]),
            count=_whole(raw["count"]),
            sha256=str(raw["sha256"]),
            solver_version=_whole(raw["solver_version"]),
            scale=_whole(raw["scale"]),
            shape=Shape(
                boxes=_whole(raw.get("boxes", Shape.boxes)),
                yahtzee_box=_box(raw.get("yahtzee_box", Shape.yahtzee_box)),
                ordered=_flag(raw.get("ordered", False)),
                cap=_whole(raw["cap"]),
            ),
        )
    except (KeyError, TypeError):
        raise CorruptTable("the advisor table's header lacks a field") from None
    return header, data[len(line) + 1 :]


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _box(value: object) -> int | None:
    return None if value is None else _whole(value)


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(value)
    return value


def decode(data: bytes, rules: RuleSet) -> npt.NDArray[np.float64]:
    """The solver table of ``rules`` from its file (unreachable states 0), to within
    ``0.5 / SCALE``; `CorruptTable` unless the file is exactly one `encode` wrote for
    these rules and this solver."""
    header, payload = read_header(data)
    if header.solver_version != SOLVER_VERSION:
        raise CorruptTable(f"an advisor table of solver version {header.solver_version}")
    if header.scoring != rules.scoring_key:
        raise CorruptTable(f"an advisor table for other rules ({header.scoring})")
    shape = Shape.of(rules)
    where = _reachable(shape)
    count = int(where.sum())
    if (header.count, header.scale, header.shape) != (count, SCALE, shape):
        raise CorruptTable("the advisor table's header does not fit this solver's table")
    if len(payload) != count * _WIDTH:
        raise CorruptTable("the advisor table is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != header.sha256:
        raise CorruptTable("the advisor table fails its checksum")
    zigzag = np.frombuffer(payload, np.uint8).reshape(_WIDTH, count).T.copy().view("<u4")
    unsigned = zigzag[:, 0].astype(np.int64)
    deltas = (unsigned >> 1) ^ -(unsigned & 1)
    table = np.zeros(shape.table_shape)
    table[where] = np.cumsum(deltas) / SCALE
    return table


__all__ = [
    "FORMAT",
    "SCALE",
    "VERSION",
    "Header",
    "Shape",
    "decode",
    "encode",
    "reachable_states",
    "read_header",
]
