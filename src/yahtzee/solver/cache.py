"""The solver's table on disk: atomic writes, checked on every load.

A file holds one line of JSON (the header: format, solver version, rule set's scoring,
shape, SHA-256 of the payload) and then the raw little-endian float64 payload. Anything
that does not match exactly (truncated, flipped bytes, other version, other rules) is
refused with `CorruptTable`, and the caller rebuilds.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

MAGIC = "yahtzee-solver-table"
CACHE_ENV = "YAHTZEE_CACHE_DIR"


class CorruptTable(Exception):
    """A cached table that cannot be trusted (the message says why)."""


def cache_dir() -> Path:
    """``$YAHTZEE_CACHE_DIR`` or the user cache directory of the platform."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs  # noqa: PLC0415 - only needed when no override is set

    return Path(platformdirs.user_cache_dir("yahtzee", appauthor=False)) / "solver"


def table_path(scoring_key: str, version: int, directory: Path | None = None) -> Path:
    slug = re.sub(r"[^a-z0-9]+", "-", scoring_key.lower()).strip("-")
    return (directory or cache_dir()) / f"table-v{version}-{slug}.bin"


def write_table(
    path: Path, table: npt.NDArray[np.float64], *, scoring_key: str, version: int
) -> None:
    """Write atomically: a temporary file in the same folder, fsync, then rename."""
    payload = np.ascontiguousarray(table, dtype="<f8").tobytes()
    header = {
        "format": MAGIC,
        "version": version,
        "scoring": scoring_key,
        "shape": list(table.shape),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    write_atomic(path, header, [payload])


def write_atomic(path: Path, header: dict[str, object], payload: list[bytes]) -> None:
    """One line of JSON, then the payload's parts, written to a temporary file in the same
    folder, fsynced, then renamed over ``path`` (a reader sees the old file or the new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _tidy(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(json.dumps(header).encode() + b"\n")
            for part in payload:
                file.write(part)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def read_table(
    path: Path, *, scoring_key: str, version: int, shape: tuple[int, ...] | None = None
) -> npt.NDArray[np.float64]:
    """The table at ``path``, or `CorruptTable` if it is not exactly what was written
    (``OSError`` when the file cannot be read at all)."""
    data = path.read_bytes()
    line, newline, payload = data.partition(b"\n")
    try:
        header = json.loads(line) if newline else None
    except (ValueError, UnicodeDecodeError):
        header = None
    if not isinstance(header, dict) or header.get("format") != MAGIC:
        raise CorruptTable(f"{path} is not a solver table")
    if header.get("version") != version:
        raise CorruptTable(f"{path} was written by solver version {header.get('version')}")
    if header.get("scoring") != scoring_key:
        raise CorruptTable(f"{path} is for other rules ({header.get('scoring')})")
    stored = header.get("shape")
    if not isinstance(stored, list) or not all(isinstance(n, int) and n > 0 for n in stored):
        raise CorruptTable(f"{path} has a bad shape")
    if shape is not None and tuple(stored) != shape:
        raise CorruptTable(f"{path} has shape {stored}, not {list(shape)}")
    if len(payload) != 8 * int(np.prod(stored)):
        raise CorruptTable(f"{path} is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise CorruptTable(f"{path} fails its checksum")
    return np.frombuffer(payload, dtype="<f8").reshape(stored).astype(np.float64, copy=True)


def _tidy(path: Path) -> None:
    """Remove what killed writers left behind (temporary files over an hour old) and tables
    of older solver versions for the same rules."""
    stale = time.time() - 3600
    kind = path.name.split("-", 1)[0]
    for leftover in path.parent.glob(f"{kind}-*.tmp"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < stale:
                leftover.unlink()
    slug = path.name.split("-", 2)[-1]
    for older in path.parent.glob(f"{kind}-v*-{slug}"):
        if older != path:
            with contextlib.suppress(OSError):
                older.unlink()


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
