"""CPU time by part of the benchmark (each node, PostgreSQL, Redis, nginx, the clients),
read from /proc: where the machine's cores go during a run."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")

Sample = dict[int, tuple[str, float]]
"""pid -> (part, CPU seconds so far)."""


def _part(pid: int, nodes: dict[int, str]) -> str | None:
    """Which part a process is: a node (by its pid), ``postgres``, ``redis``, ``nginx``, the
    ``clients`` (this process) or None (something else on the machine)."""
    if pid in nodes:
        return nodes[pid]
    if pid == os.getpid():
        return "clients"
    try:
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
    if name.startswith(("postgres", "postmaster")):
        return "postgres"
    if name.startswith("redis-server"):
        return "redis"
    if name.startswith("nginx"):
        return "nginx"
    return None


def sample(nodes: dict[int, str]) -> Sample:
    """Every known part's processes and their CPU seconds (user + system) so far;
    ``nodes`` names the nodes' pids."""
    found: Sample = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        part = _part(pid, nodes)
        if part is None:
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        ticks = int(fields[11]) + int(fields[12])
        if part == "postgres":  # and its ended children's: pooled backends come and go
            ticks += int(fields[13]) + int(fields[14])
        found[pid] = (part, ticks / TICKS)
    return found


def shares(before: Sample, after: Sample, seconds: float) -> Counter[str]:
    """Cores used by each part between two samples (a process started meanwhile counts
    from zero, one gone meanwhile is not counted, except PostgreSQL's backends: their
    time goes to the postmaster's children's when they end)."""
    used: Counter[str] = Counter()
    for pid, (part, cpu) in after.items():
        was = before.get(pid)
        used[part] += (cpu - (was[1] if was is not None and was[0] == part else 0.0)) / seconds
    return used


def describe(used: Counter[str]) -> str:
    """``node1 0.62, postgres 0.31, ...`` (cores), most first, and the total."""
    parts = ", ".join(f"{part} {cores:.2f}" for part, cores in used.most_common())
    return f"{parts}; total {sum(used.values()):.2f} of {os.cpu_count()} cores"


def cpu_busy() -> list[float]:
    """Each core's busy seconds so far (``/proc/stat``: all but idle and iowait)."""
    busy = []
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if name.startswith("cpu") and name != "cpu":
            ticks = [int(f) for f in fields[:8]]
            busy.append((sum(ticks) - ticks[3] - ticks[4]) / TICKS)
    return busy


def describe_busy(before: list[float], after: list[float], seconds: float) -> str:
    """``cpu0 0.97, cpu1 0.81`` (each core's busy share between two ``cpu_busy()``)."""
    return ", ".join(
        f"cpu{i} {(a - b) / seconds:.2f}"
        for i, (b, a) in enumerate(zip(before, after, strict=True))
    )


def allowed(nodes: dict[int, str]) -> dict[str, str]:
    """The cores each part may run on (``Cpus_allowed_list`` of its processes' threads,
    joined), from a ``sample`` of /proc now: ``{"node1": "0", "postgres": "1", ...}``."""
    found: dict[str, set[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or (part := _part(int(entry.name), nodes)) is None:
            continue
        try:
            tasks = list((entry / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                status = (task / "status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("Cpus_allowed_list:"):
                    found.setdefault(part, set()).add(line.split(":", 1)[1].strip())
    return {part: "+".join(sorted(lists)) for part, lists in sorted(found.items())}


def pin(pid: int, cores: set[int]) -> None:
    """Every thread of process ``pid`` to ``cores`` (threads made later inherit it from
    the thread that makes them)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread gone meanwhile
            os.sched_setaffinity(int(task.name), cores)
