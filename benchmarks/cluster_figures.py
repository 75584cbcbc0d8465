"""The cluster benchmark's figures: percentiles, the 3 s windows, and the medians over
several runs of each kind (``cluster.py --repeat``).

One run on this 2-core machine moves by 20-40 % from the next with the same code (the
ratio of 2 nodes to 1 came out 1.04 and 1.17 within the hour, a node kill's recovery 3.4 s
and 10.5 s): each figure is given as the median of the runs, with every run beside it.
The runs of each kind alternate (a, b, a, b, ...), so that the ratio of 2 nodes to 1 is
taken per pair run minutes apart, and its median given too.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass

from cluster_clients import Run


@dataclass(frozen=True)
class Figures:
    """One run's headline figures."""

    per_action_ms: float  # the nodes' CPU per acknowledged action
    p99_ms: float  # intent to own event, the whole measured window
    moved_s: float | None  # after the kill: until every table moved again (max); None: no kill


def median(values: list[float]) -> float:
    """The median (nan: no values; a table never moved again counts as infinite)."""
    return statistics.median(values) if values else math.nan


def _each(values: list[float], unit: str) -> str:
    shown = ", ".join(f"{v:.2f}" if unit == "ms/action" else f"{v:.1f}" for v in values)
    return f"({shown})"


def summary(runs: dict[str, list[Figures]], describe: dict[str, str]) -> str:
    """Medians per kind of run (and every run's figure), and the 2-node/1-node ratio's."""
    lines = [f"\nmedians over {max(map(len, runs.values()))} runs of each kind:"]
    for kind, found in runs.items():
        cpu = [f.per_action_ms for f in found]
        p99 = [f.p99_ms for f in found]
        line = (
            f"  {kind} ({describe[kind]}): node CPU per acknowledged action "
            f"{median(cpu):.2f} ms {_each(cpu, 'ms/action')}, p99 {median(p99):.1f} ms "
            f"{_each(p99, 'ms')}"
        )
        moved = [f.moved_s for f in found if f.moved_s is not None]
        if moved:
            line += f", every table moving again within {median(moved):.1f} s {_each(moved, 's')}"
        lines.append(line)
    one = runs.get("a", runs.get("s"))
    if one is not None and "b" in runs:
        ratios = [b.per_action_ms / a.per_action_ms for a, b in zip(one, runs["b"], strict=False)]
        shown = ", ".join(f"{r:.2f}" for r in ratios)
        lines.append(f"  ratio 2 nodes (b) / 1 node, pair by pair: median {median(ratios):.2f} "
                     f"({shown})")  # fmt: skip
    return "\n".join(lines)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def windows(run: Run, size: float) -> list[str]:
    """Per ``size`` seconds of the measured window (by when each intent was sent): the
    intents, their p50 and p99 to their own event, the games ended and tables opened."""
    if not run.stamps:
        return []
    count = max(1, int(run.measured / size + 0.999)) if run.measured else 1
    count = max(count, int(max(run.stamps) // size) + 1)
    waits: list[list[float]] = [[] for _ in range(count)]
    for stamp, wait in zip(run.stamps, run.latencies, strict=True):
        waits[min(count - 1, max(0, int(stamp // size)))].append(wait)
    ended, opened = (
        Counter(int(t // size) for t in run.ended),
        Counter(int(t // size) for t in run.opened),
    )
    lines = []
    for i, values in enumerate(waits):
        mark = (
            f", {ended[i]} games over, {opened[i]} tables opened" if ended[i] or opened[i] else ""
        )
        lines.append(
            f"{i * size:5.0f}-{(i + 1) * size:<3.0f} s: {len(values):5d} intents, p50 "
            f"{percentile(values, 0.5) * 1e3:6.1f} ms, p99 {percentile(values, 0.99) * 1e3:6.1f} "
            f"ms{' *' if ended[i] else ''}{mark}"
        )
    return lines


def split(run: Run, size: float) -> list[list[float]]:
    """The waits by ``size`` seconds of the measured window (by when each was sent)."""
    found: dict[int, list[float]] = {}
    for stamp, wait in zip(run.stamps, run.latencies, strict=True):
        found.setdefault(int(stamp // size), []).append(wait)
    return list(found.values())


__all__ = ["Figures", "median", "percentile", "split", "summary", "windows"]
