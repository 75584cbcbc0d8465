"""Tables that ship with the package, so that a fresh install advises at once.

Building a table needs the compiled kernels, and compiling them takes many seconds the
first time. The tables of the official rules and of Yatzy therefore ship in
``solver/data``: their reachable entries, byte-shuffled and compressed (about 2.5 MB and
MB), each with a SHA-256 of the whole table.
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
from .tables import card_shape, reach_table

DATA = Path(__file__).resolve().parent / "data"
SHIPPED = ("official", "yatzy")
"""The rule sets whose tables ship (others are built on first use)."""
SHIPPED_CURVES = ("official", "yatzy")
"""The rule sets whose distribution and variance tables ship too."""
_WIDTH = 8  # bytes of a float64


def shipped_path(rules: RuleSet) -> Path:
    return DATA / f"{rules.name}.table.z"


def reachable(shape: tuple[int, ...], rules: RuleSet | None = None) -> npt.NDArray[np.bool_]:
    """The entries of the rules' table (official: ``None``) a game can reach: subtotals
    up to the mask's reach, and ``yf`` = 1 only with the Yahtzee box filled. Every other
    entry of a table is zero."""
    card = card_shape(rules or RuleSet.official())
    reach = reach_table(shape[0].bit_length() - 1)
    found = np.arange(shape[2])[None, None, :] <= reach[:, None, None]
    found = np.repeat(found, shape[1], axis=1)
    if shape[1] > 1:
        found[np.arange(shape[0]) & (1 << card.yahtzee_box) == 0, 1, :] = False
    return found


def encode(table: npt.NDArray[np.float64], rules: RuleSet, version: int) -> bytes:
    full = np.ascontiguousarray(table, dtype="<f8")
    values = np.ascontiguousarray(full[reachable(full.shape, rules)])
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
    where = reachable(shape, rules)
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
