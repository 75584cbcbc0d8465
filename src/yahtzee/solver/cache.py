"""The solver's table on disk: atomic writes, checked on every load.

A file holds one line of JSON (the header: format, solver version, rule set's scoring,
shape, SHA-256 of the payload) and then the raw little-endian float64 payload. Anything
that does not match exactly (truncated, flipped bytes, other version, other rules) is
refused with :class:`CorruptTable`, and the caller rebuilds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
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
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(json.dumps(header).encode() + b"\n")
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def read_table(path: Path, *, scoring_key: str, version: int) -> npt.NDArray[np.float64]:
    """The table at ``path``, or :class:`CorruptTable` if it is not exactly what was written."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as error:
        raise CorruptTable(f"cannot read {path}: {error}") from None
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
    shape = header.get("shape")
    if not isinstance(shape, list) or not all(isinstance(n, int) and n > 0 for n in shape):
        raise CorruptTable(f"{path} has a bad shape")
    if len(payload) != 8 * int(np.prod(shape)):
        raise CorruptTable(f"{path} is truncated or padded")
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise CorruptTable(f"{path} fails its checksum")
    return np.frombuffer(payload, dtype="<f8").reshape(shape).astype(np.float64, copy=True)


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
