"""The two score-curve tables of a rule set, quantised, cached and checked.

* ``target``: per turn-start state, the highest chance of scoring at least ``n`` more
  points, for ``n`` up to `TABLE_CAP` (for `TargetSolver` and the
  ``winning`` strategy);
* ``distribution``: per state, the chance of scoring at least ``n`` more points under the
  expected-value-optimal play (the win-chance meter, and the opponents the ``winning``
  strategy faces). Points beyond the cap count as the cap.

Each curve is kept as its band of 16-bit levels (``level / 65535``; 1 below the band, 0
above; a level is within 0.000008 of the value the build computed). States whose upper
bonus is out of reach share one band (see `curve_build.canonical`). On disk the
levels are stored as the steps between neighbours (curves only fall, so the steps are
small), low and high bytes apart, compressed: 70-80 MB a table for the official rules
instead of 400 MB; in memory they are plain levels again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core import RuleSet, Scorecard
from . import builds
from .cache import CACHE_ENV, CorruptTable, cache_dir, write_atomic
from .curve_build import (
    Kind,
    Progress,
    bands,
    build_layers,
    n_states,
    offsets_of,
    state_index,
)
from .loaded_once import LoadedOnce
from .planner import state_of
from .tables import card_shape, edition_card

CURVES_VERSION = 2
TABLE_CAP = 600
"""Points still to come that the tables cover: beyond, a target is out of range (from an
empty card the chance of 600 more is 0.0014 at best) and a distribution counts 600."""
LEVELS = 65535
LEVEL_EPS = 0.5 / LEVELS
"""Values within this of 1 or 0 are level 65535 or 0: the band stops there."""
MAGIC = "yahtzee-score-curves"
FLOAT_EPS = {"target": 1e-6, "distribution": 1e-9}
"""While building, curves within this of 1 or 0 are kept as 1 or 0 (and a target curve is
not worked out further): thirteen layers add up to at most 1.3e-5 (float32) and 1.3e-8."""
COMPRESSION = 1  # zlib level: 6 saves a tenth more and takes three times as long
U16 = npt.NDArray[np.uint16]
I16 = npt.NDArray[np.int16]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

_log = logging.getLogger(__name__)


def encode_levels(levels: U16) -> list[bytes]:
    """The levels as steps from one to the next (modulo 2**16, from 65535), their low and
    high bytes apart, each compressed."""
    steps = np.empty_like(levels)
    if len(levels):
        steps[0] = LEVELS - int(levels[0])
        np.subtract(levels[:-1], levels[1:], out=steps[1:])
    return [
        zlib.compress((steps & 0xFF).astype(np.uint8).tobytes(), COMPRESSION),
        zlib.compress((steps >> 8).astype(np.uint8).tobytes(), COMPRESSION),
    ]


def decode_levels(low: bytes, high: bytes, count: int) -> U16:
    """The inverse of `encode_levels` (``ValueError`` when the bytes do not fit)."""
    steps = np.empty(count, dtype="<u2")
    pairs = steps.view(np.uint8).reshape(count, 2)
    for byte, part in enumerate((low, high)):
        plane = zlib.decompress(part)
        if len(plane) != count:
            raise ValueError("the levels do not have the recorded length")
        pairs[:, byte] = np.frombuffer(plane, dtype=np.uint8)
    np.cumsum(steps, dtype=np.uint16, out=steps)
    np.subtract(np.uint16(LEVELS), steps, out=steps)
    return steps.astype(np.uint16, copy=False)


@dataclass(frozen=True, eq=False)
class CurveTable:
    """Banded 16-bit survival curves of every reachable turn-start state."""

    kind: Kind
    rules: RuleSet
    cap: int
    levels: U16
    start: I64  # [states] where each state's band starts in ``levels`` (see `n_states`)
    lo: I16  # [states] first point of the band (the curve is 1 before it)
    hi: I16  # [states] last point of the band (0 after it)

    @classmethod
    def blank(cls, rules: RuleSet) -> CurveTable:
        """A table of nothing (for kernels that take one and will not read it)."""
        zeros = np.zeros(n_states(card_shape(rules)), dtype=np.int16)
        start = np.zeros(len(zeros), dtype=np.int64)
        return cls("target", rules, TABLE_CAP, np.zeros(1, np.uint16), start, zeros, zeros)

    @staticmethod
    def index(card: Scorecard) -> int:
        """The index of the turn-start state of ``card`` (a card of any edition)."""
        state = np.array([state_of(card)], dtype=np.int64)
        return int(state_index(state, edition_card(card.edition))[0])

    def curve(self, card: Scorecard, length: int | None = None) -> F64:
        """``S[n]`` = the chance of at least ``n`` more points from a turn start on
        ``card``, ``n`` from 0 to ``length - 1`` (default: the cap), 0 past the band."""
        size = self.cap + 1 if length is None else length
        out = np.zeros(size)
        if card.is_complete:
            out[:1] = 1.0
            return out
        i = self.index(card)
        a, b, s = int(self.lo[i]), int(self.hi[i]), int(self.start[i])
        out[: min(a, size)] = 1.0
        if b >= a and a < size:
            top = min(b, size - 1)
            out[a : top + 1] = self.levels[s : s + top + 1 - a] / LEVELS
        return out

    # Files -----------------------------------------------------------------------------

    @staticmethod
    def path_for(kind: Kind, rules: RuleSet, directory: Path | None = None) -> Path:
        slug = "".join(ch if ch.isalnum() else "-" for ch in rules.scoring_key.lower())
        return (directory or cache_dir()) / f"curves-v{CURVES_VERSION}-{kind}-{slug}.bin"

    def save(self, directory: Path | None = None) -> Path:
        path = self.path_for(self.kind, self.rules, directory)
        index = [a.tobytes() for a in (self.lo.astype("<i2"), self.hi.astype("<i2"))]
        index.append(self.start.astype("<i8").tobytes())
        payload = [zlib.compress(b"".join(index), COMPRESSION), *encode_levels(self.levels)]
        digest = hashlib.sha256()
        for part in payload:
            digest.update(part)
        header = {
            "format": MAGIC,
            "kind": self.kind,
            "version": CURVES_VERSION,
            "scoring": self.rules.scoring_key,
            "cap": self.cap,
            "values": len(self.levels),
            "parts": [len(part) for part in payload],
            "sha256": digest.hexdigest(),
        }
        write_atomic(path, header, payload)
        return path

    @classmethod
    def read(cls, kind: Kind, rules: RuleSet, directory: Path | None = None) -> CurveTable:
        """The cached table, or `CorruptTable` unless it is exactly what was
        written for these rules (``FileNotFoundError`` when there is none)."""
        path = cls.path_for(kind, rules, directory)
        data = path.read_bytes()
        line, _, payload = data.partition(b"\n")
        try:
            header = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            header = None
        if not isinstance(header, dict) or header.get("format") != MAGIC:
            raise CorruptTable(f"{path} is not a score-curve table")
        if (header.get("kind"), header.get("version"), header.get("scoring")) != (
            kind,
            CURVES_VERSION,
            rules.scoring_key,
        ):
            raise CorruptTable(f"{path} is for another table, version or rules")
        values, cap, parts = header.get("values"), header.get("cap"), header.get("parts")
        if (
            not isinstance(values, int)
            or not isinstance(cap, int)
            or values < 0
            or not isinstance(parts, list)
            or len(parts) != 3  # noqa: PLR2004 - the index, the low and the high bytes
            or not all(isinstance(n, int) and n >= 0 for n in parts)
        ):
            raise CorruptTable(f"{path} has a bad header")
        if len(payload) != sum(parts):
            raise CorruptTable(f"{path} is truncated or padded")
        if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
            raise CorruptTable(f"{path} fails its checksum")
        at = np.cumsum((0, *parts))
        chunks = [payload[at[i] : at[i + 1]] for i in range(3)]
        try:
            index = zlib.decompress(chunks[0])
            levels = decode_levels(chunks[1], chunks[2], values)
        except (zlib.error, ValueError) as error:
            raise CorruptTable(f"{path} does not decode ({error})") from None
        count = n_states(card_shape(rules))
        if len(index) != 12 * count:  # two int16 and one int64 a state
            raise CorruptTable(f"{path} has an index of the wrong size")
        lo = np.frombuffer(index, "<i2", count, 0).astype(np.int16)
        hi = np.frombuffer(index, "<i2", count, 2 * count).astype(np.int16)
        start = np.frombuffer(index, "<i8", count, 4 * count).astype(np.int64)
        return cls(kind, rules, cap, levels, start, lo, hi)


def build(
    kind: Kind, rules: RuleSet, *, progress: Progress | None = None, base_mask: int = 0
) -> CurveTable:
    """Solve every state's curve (``base_mask``: only cards holding those boxes, for
    tests of the late game) and quantise it."""
    from . import curves as kernels  # noqa: PLC0415 - numba loads only to build
    from .curve_build import canonical, layer_states  # noqa: PLC0415

    expected = None
    if kind == "distribution":
        from .solver import cached_solver  # noqa: PLC0415 - the policy it follows

        expected = cached_solver(rules).table
    dtype = np.float32 if kind == "target" else np.float64
    shape = card_shape(rules)
    lo = np.zeros(n_states(shape), dtype=np.int16)
    hi = np.zeros(n_states(shape), dtype=np.int16)
    start = np.zeros(n_states(shape), dtype=np.int64)
    parts: list[U16] = []
    used = 0
    for layer in build_layers(
        kind, rules, cap=TABLE_CAP, base_mask=base_mask, dtype=dtype, eps=FLOAT_EPS[kind],
        expected=expected, progress=progress,
    ):  # fmt: skip
        a, b = bands(layer.curves, layer.widths, LEVEL_EPS)
        offsets, after = offsets_of(a, b, used)
        values = np.empty(after - used, dtype=np.uint16)
        kernels.level_bands(layer.curves, a, b, offsets - used, LEVELS, values)
        lo[layer.index], hi[layer.index], start[layer.index] = a, b, offsets
        parts.append(values)
        used = after
    for filled in range(base_mask.bit_count(), shape.n_boxes + 1):
        every = layer_states(filled, base_mask, shape)
        if len(every):
            alias = state_index(canonical(every, shape), shape)
            index = state_index(every, shape)
            lo[index], hi[index], start[index] = lo[alias], hi[alias], start[alias]
    levels = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint16)
    return CurveTable(kind, rules, TABLE_CAP, levels, start, lo, hi)


def load(
    kind: Kind,
    rules: RuleSet,
    *,
    directory: Path | None = None,
    progress: Progress | None = None,
    on_notice: Callable[[str], None] | None = None,
) -> CurveTable:
    """The cached table, checked; when missing or not trustworthy, built and cached by
    the machine's one builder (see `builds`): a build already running is followed
    (``progress`` hears its layers), else a detached builder is started and followed
    (``on_notice`` hears what it will take). A rule set that is not registered, or
    builds aside turned off (`NO_BUILDS_ENV`), build in this process,
    still one build at a time; a cache that cannot be written, in memory (with a warning).
    Raises `TableBuildError` when the build cannot be done."""
    path = CurveTable.path_for(kind, rules, directory)
    seen: os.stat_result | None = None
    try:
        seen = path.stat()
        return CurveTable.read(kind, rules, directory)
    except (FileNotFoundError, NotADirectoryError):  # (a cache "folder" that is a file:
        pass  # said below, where it cannot be written)
    except (CorruptTable, OSError) as why:
        _log.warning("rebuilding the %s table: %s", kind, why)
        with contextlib.suppress(OSError):  # a damaged file, unless replaced meanwhile
            now = path.stat()
            if seen is not None and (now.st_ino, now.st_mtime_ns) == (
                seen.st_ino,
                seen.st_mtime_ns,
            ):
                path.unlink()
    built: list[CurveTable] = []

    def build_here(job: builds.Job, report: Progress) -> None:
        table = build(kind, rules, progress=report, base_mask=builds.restricted_base_mask())
        built.append(table)
        try:
            table.save(directory)
        except OSError as error:
            _log.warning(
                "cannot keep the %s table in the cache (%s): it is used from memory, and "
                "built again next time",
                kind, builds.describe(error),
            )  # fmt: skip

    def heard(job: builds.Job, done: int, total: int) -> None:
        if progress:
            progress(done, total)

    job = builds.Job(rules.name, kind, path)
    try:
        builds.obtain(
            [job], directory, progress=heard, on_notice=on_notice,
            detach=builds.may_detach(rules), build_here=build_here,
        )  # fmt: skip
    except builds.CacheNotWritable as error:
        _not_writable(error)
        return build(kind, rules, progress=progress, base_mask=builds.restricted_base_mask())
    return built[0] if built else CurveTable.read(kind, rules, directory)


def _not_writable(error: builds.CacheNotWritable) -> None:
    """Say once (a warning) that the cache cannot be written: each table is built in this
    process, held in memory only, and built again by the next program that asks for it."""
    said = str(error).rstrip(".")
    if said in _TOLD:
        return
    _TOLD.add(said)
    _log.warning(
        "%s: the win-chance tables are built here, in memory (a few minutes), and again at "
        "each run until they can be kept: set %s to a folder that can be written",
        said, CACHE_ENV,
    )  # fmt: skip


_TOLD: set[str] = set()
"""The unwritable caches already said (once a process)."""


_LOADED: LoadedOnce[tuple[Kind, str], CurveTable] = LoadedOnce()


def cached_table(kind: Kind, rules: RuleSet, *, progress: Progress | None = None) -> CurveTable:
    """One table of each kind per rule set for the whole process (threads wait for one
    load of it; the loads of other tables go on meanwhile)."""
    return _LOADED.get((kind, rules.scoring_key), lambda: load(kind, rules, progress=progress))


def table_loaded(kind: Kind, rules: RuleSet) -> bool:
    """Whether this process holds the table (`cached_table` answers at once)."""
    return (kind, rules.scoring_key) in _LOADED
