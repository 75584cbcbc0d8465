"""The advisor's table file for the page: a rule set's solver table, compact.

The page advises offline from this file (``static/advisor_table.js`` reads it). It holds
only the states a game can reach (`reachable_states`: ``(mask, yf, u)`` where ``yf`` is 1
only with the Yahtzee box filled and ``u`` a capped sum the filled upper boxes can hold;
536,448 of the table's 1,048,576 for every rule set), in the table's own order (mask,
then ``yf``, then ``u``), each value in fixed point (a 65536th of a point: at most 7.6e-6 off, well
inside the 1e-4 the advice needs), as the difference from the value before it (the first
from 0), zigzagged (0, -1, 1, -2 ... as 0, 1, 2, 3 ...) into an unsigned 32-bit integer,
and byte-shuffled: the low bytes of every value, then the second bytes, and so on. Small
differences then give long runs of zero bytes, which gzip shrinks to about 770 KB (the
float32 values would take 1.1 MB).

The file is one line of JSON (the header), a newline, and the payload::

    {"format": "yahtzee-advisor-table", "version": 1, "solver_version": 1,
     "scoring": "joker=forced;bonus=100", "count": 536448, "scale": 65536,
     "cap": 63, "sha256": "<hex digest of the payload>"}

``cap`` is the capped upper subtotal (the table's last ``u``): with it, a reader knows
which states are reachable without any rule of its own. A reader refuses a file whose
header or payload does not match exactly (`CorruptTable`).
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
from .solver import SOLVER_VERSION, TABLE_SHAPE
from .tables import N_MASKS, UPPER_CAP, YAHTZEE_BIT

FORMAT = "yahtzee-advisor-table"
VERSION = 1
"""The file format's version (a change of layout or encoding renames every address)."""
SCALE = 1 << 16
"""Fixed point: a value is stored in 65536ths of a point."""
_WIDTH = 4  # bytes per value
_MAX_HEADER = 1024  # bytes: a header longer than this is not one


@cache
def reachable_states() -> npt.NDArray[np.bool_]:
    """``[mask, yf, u]``: whether a game can reach the state. ``yf`` is 1 only with the
    Yahtzee box filled; ``u`` is a capped sum that the filled upper boxes can hold (each
    box 0 to 5 dice of its face). Advice on a reachable state reads reachable states only."""
    found = np.zeros(TABLE_SHAPE, dtype=bool)
    sums = np.zeros((N_MASKS, UPPER_CAP + 1), dtype=bool)
    sums[0, 0] = True
    for mask in range(1, N_MASKS):
        low = mask & -mask  # the lowest box filled
        rest = sums[mask ^ low]
        box = low.bit_length() - 1
        if box >= len(Category.upper()):
            sums[mask] = rest
            continue
        for dice in range(DICE_COUNT + 1):
            points = dice * (box + 1)
            shifted = np.zeros_like(rest)
            shifted[points:] = rest[: UPPER_CAP + 1 - points]
            shifted[UPPER_CAP] |= rest[UPPER_CAP + 1 - points :].any()
            sums[mask] |= shifted
    found[:, 0, :] = sums
    found[:, 1, :] = sums & (np.arange(N_MASKS) & YAHTZEE_BIT != 0)[:, None]
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
    cap: int = UPPER_CAP

    def to_dict(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "version": self.version,
            "solver_version": self.solver_version,
            "scoring": self.scoring,
            "count": self.count,
            "scale": self.scale,
            "cap": self.cap,
            "sha256": self.sha256,
        }


def encode(table: npt.NDArray[np.float64], rules: RuleSet) -> bytes:
    """The file of ``rules``' solver table (shape ``TABLE_SHAPE``)."""
    if table.shape != TABLE_SHAPE:
        raise ValueError(f"a solver table has shape {TABLE_SHAPE}, not {table.shape}")
    values = np.asarray(table, dtype=np.float64)[reachable_states()]
    if not np.all(np.isfinite(values)) or values.min() < 0 or values.max() * SCALE >= 1 << 31:
        raise ValueError("a solver table's values are points from 0 to 32767")
    fixed = np.rint(values * SCALE).astype(np.int64)
    deltas = np.diff(fixed, prepend=0)
    zigzag = ((deltas << 1) ^ (deltas >> 63)).astype("<u4")
    payload = zigzag.view(np.uint8).reshape(-1, _WIDTH).T.tobytes()
    header = Header(rules.scoring_key, int(fixed.size), hashlib.sha256(payload).hexdigest())
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
            cap=_whole(raw["cap"]),
        )
    except (KeyError, TypeError):
        raise CorruptTable("the advisor table's header lacks a field") from None
    return header, data[len(line) + 1 :]


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
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
    where = reachable_states()
    count = int(where.sum())
    if (header.count, header.scale, header.cap) != (count, SCALE, UPPER_CAP):
        raise CorruptTable("the advisor table's header does not fit this solver's table")
    if len(payload) != count * _WIDTH:
        raise CorruptTable("the advisor table is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != header.sha256:
        raise CorruptTable("the advisor table fails its checksum")
    zigzag = np.frombuffer(payload, np.uint8).reshape(_WIDTH, count).T.copy().view("<u4")
    unsigned = zigzag[:, 0].astype(np.int64)
    deltas = (unsigned >> 1) ^ -(unsigned & 1)
    table = np.zeros(TABLE_SHAPE)
    table[where] = np.cumsum(deltas) / SCALE
    return table


__all__ = [
    "FORMAT",
    "SCALE",
    "VERSION",
    "Header",
    "decode",
    "encode",
    "reachable_states",
    "read_header",
]
