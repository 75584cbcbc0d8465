"""Tables that ship with the package, so that a fresh install advises at once.

Building a table needs the compiled kernels, and compiling them takes many seconds the
first time. The official rules' table therefore ships in ``solver/data``: its reachable
entries, byte-shuffled and compressed (about 2.5 MB), with a SHA-256 of the whole table.
``python scripts/make_shipped_tables.py`` regenerates it; ``tests/solver`` rebuilds the
table and compares.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core import RuleSet
from .cache import MAGIC, CorruptTable
from .tables import YAHTZEE_BIT, reach_table

DATA = Path(__file__).resolve().parent / "data"
SHIPPED = ("official",)
"""The rule sets whose tables ship (others are built on first use)."""
_WIDTH = 8  # bytes of a float64


def shipped_path(rules: RuleSet) -> Path:
    return DATA / f"{rules.name}.table.z"


def reachable(shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """The entries a game can reach: subtotals up to the mask's reach, and ``yf`` = 1
    only with the Yahtzee box filled. Every other entry of a table is zero."""
    reach = reach_table()
    found = np.zeros(shape, dtype=bool)
    subtotals = np.arange(shape[2])
    for mask in range(shape[0]):
        found[mask, :, :] = subtotals <= reach[mask]
        if not mask & YAHTZEE_BIT:
            found[mask, 1, :] = False
    return found


def encode(table: npt.NDArray[np.float64], rules: RuleSet, version: int) -> bytes:
    full = np.ascontiguousarray(table, dtype="<f8")
    values = np.ascontiguousarray(full[reachable(full.shape)])
    shuffled = values.view(np.uint8).reshape(-1, _WIDTH).T.tobytes()
    header = {
        "format": MAGIC,
        "version": version,
        "scoring": rules.scoring_key,
        "shape": list(full.shape),
        "sha256": hashlib.sha256(full.tobytes()).hexdigest(),
    }
    return json.dumps(header).encode() + b"\n" + zlib.compress(shuffled, 9)


def decode(data: bytes, rules: RuleSet, version: int) -> npt.NDArray[np.float64]:
    """The table, or `CorruptTable` unless it is exactly the one that was encoded."""
    line, _, body = data.partition(b"\n")
    try:
        header = json.loads(line)
        shuffled = zlib.decompress(body)
    except (ValueError, zlib.error):
        raise CorruptTable("the shipped table is damaged") from None
    if (
        not isinstance(header, dict)
        or header.get("format") != MAGIC
        or header.get("version") != version
        or header.get("scoring") != rules.scoring_key
    ):
        raise CorruptTable("the shipped table is for another solver or other rules")
    shape = tuple(int(n) for n in header["shape"])
    where = reachable(shape)
    count = int(where.sum())
    if len(shuffled) != count * _WIDTH:
        raise CorruptTable("the shipped table is truncated")
    values = np.frombuffer(shuffled, np.uint8).reshape(_WIDTH, count).T.copy().view("<f8")
    table = np.zeros(shape, dtype="<f8")
    table[where] = values[:, 0]
    if hashlib.sha256(table.tobytes()).hexdigest() != header.get("sha256"):
        raise CorruptTable("the shipped table fails its checksum")
    return table.astype(np.float64)


def load_shipped(rules: RuleSet, version: int) -> npt.NDArray[np.float64] | None:
    """The shipped table of ``rules`` (None when none ships for them)."""
    path = shipped_path(rules)
    if rules.name not in SHIPPED or not path.is_file():
        return None
    return decode(path.read_bytes(), rules, version)
