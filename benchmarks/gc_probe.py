"""The nodes' pauses for Python's cyclic garbage collector (``cluster.py --gc-probe``).

A ``sitecustomize`` module, put first on the nodes' ``PYTHONPATH``, adds a `gc.callbacks`
probe to each node: every collection of 5 ms or more writes its generation, its length
and when it ended (``time.monotonic()``, the same clock in every process here) to the
node's stderr. The benchmark keeps those of the measured window. A collection holds the
GIL, so an intent that arrives meanwhile waits for it (the event loop stands still).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

MARK = "GC-PAUSE"
SHORTEST_MS = 5.0

PROBE = f"""
import gc, sys, time

_began = [0.0]


def _probe(phase, info):
    if phase == "start":
        _began[0] = time.monotonic()
        return
    took = (time.monotonic() - _began[0]) * 1e3
    if took >= {SHORTEST_MS}:
        sys.stderr.write(f"{MARK} {{info['generation']}} {{took:.1f}} {{time.monotonic():.3f}}\\n")


gc.callbacks.append(_probe)
"""


def install() -> Path:
    """A new folder holding the probe as ``sitecustomize.py`` (for the front of
    ``PYTHONPATH``)."""
    folder = Path(tempfile.mkdtemp(prefix="yahtzee-gc-probe-"))
    (folder / "sitecustomize.py").write_text(PROBE)
    return folder


def pauses(output: str, start: float, end: float) -> list[tuple[int, float]]:
    """The (generation, ms) of each pause a node's ``output`` reports between ``start`` and
    ``end`` (monotonic seconds)."""
    found = []
    for line in output.splitlines():
        words = line.split()
        if len(words) == 4 and words[0] == MARK and start <= float(words[3]) <= end:
            found.append((int(words[1]), float(words[2])))
    return found


def describe(found: list[tuple[int, float]]) -> str:
    """``7 (gen0 6, gen1 1), longest 114.3 ms, 402.0 ms in all``."""
    if not found:
        return f"none of {SHORTEST_MS:g} ms or more"
    counts = Counter(generation for generation, _ in found)
    each = ", ".join(f"gen{g} {n}" for g, n in sorted(counts.items()))
    longest, total = max(ms for _, ms in found), sum(ms for _, ms in found)
    return f"{len(found)} ({each}), longest {longest:.1f} ms, {total:.1f} ms in all"
