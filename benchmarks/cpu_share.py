"""CPU time by part of the benchmark (each node, PostgreSQL, Redis, nginx, the clients),
read from /proc: where the machine's cores go during a run."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")

Sample = dict[int, tuple[str, float]]
"""pid -> (part, CPU seconds so far)."""


def _fields(stat: Path) -> list[str]:
    """A /proc stat file's fields after the name (field 3, the state, first); raises
    `OSError` for a process or thread gone meanwhile."""
    return stat.read_text().rsplit(")", 1)[1].split()


def _stats() -> dict[int, list[str]]:
    """Every process's /proc/PID/stat fields (`_fields`)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                found[int(entry.name)] = _fields(entry / "stat")
            except (OSError, IndexError):
                continue
    return found


def _part(pid: int, named: dict[int, str], stats: dict[int, list[str]]) -> str | None:
    """Which part a process is: one ``named`` (by its pid: each node, and where known the
    postmaster, redis-server and nginx master) or a descendant of one, the ``clients``
    (this process), else by its name ``postgres``, ``redis`` or ``nginx`` when no process
    of that part is named (on a shared machine others' would count), else None."""
    if pid == os.getpid():
        return "clients"
    seen, up = 0, pid
    while up in stats and seen < 8:
        if up in named:
            return named[up]
        up, seen = int(stats[up][1]), seen + 1
    try:
        name = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
    parts = set(named.values())
    for prefix, part in (("postgres", "postgres"), ("postmaster", "postgres"),
                         ("redis-server", "redis"), ("nginx", "nginx")):  # fmt: skip
        if name.startswith(prefix) and part not in parts:
            return part
    return None


def sample(named: dict[int, str]) -> Sample:
    """Every known part's processes and their CPU seconds (user + system) so far;
    ``named`` names the nodes' pids (and those of PostgreSQL, Redis and nginx, whose
    children count with them)."""
    found: Sample = {}
    stats = _stats()
    for pid, fields in stats.items():
        part = _part(pid, named, stats)
        if part is None:
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


def _thread_fields(pid: int, field: str) -> Iterator[tuple[str, str]]:
    """(thread id, value) of ``field`` in each of process ``pid``'s threads'
    /proc/PID/task/TID/status (none for a process or thread gone meanwhile)."""
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return
    for task in tasks:
        try:
            status = (task / "status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith(f"{field}:"):
                yield task.name, line.split(":", 1)[1].strip()


def wakeups(named: dict[int, str]) -> Counter[str]:
    """Each node's times asleep and woken so far (its threads' voluntary context
    switches): ``node1`` for its event loop's thread, ``node1 all`` for all its threads.
    On a machine that charges for waking up, what a node does per event matters less
    than how often it wakes."""
    found: Counter[str] = Counter()
    for pid, part in named.items():
        if not part.startswith("node"):
            continue
        for thread, value in _thread_fields(pid, "voluntary_ctxt_switches"):
            found[f"{part} all"] += int(value)
            if thread == str(pid):  # the main thread: the event loop
                found[part] += int(value)
    return found


def process_cpu(pid: int, thread: int | None = None) -> float:
    """A process's CPU seconds so far (user + system, every thread, ended ones too), or
    one of its threads' (``thread``: its id); raises `OSError` for one gone meanwhile."""
    where = f"/proc/{pid}/stat" if thread is None else f"/proc/{pid}/task/{thread}/stat"
    fields = _fields(Path(where))
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def loop_cpu(named: dict[int, str]) -> Counter[str]:
    """Each node's event loop thread's CPU seconds (user + system) so far, by node: the
    rest of a node's CPU is its worker threads' (the records' statements, the
    heartbeat)."""
    found: Counter[str] = Counter()
    for pid, part in named.items():
        if not part.startswith("node"):
            continue
        try:
            found[part] += process_cpu(pid, thread=pid)
        except (OSError, IndexError):
            continue
    return found


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
    stats = _stats()
    for pid in stats:
        if (part := _part(pid, nodes, stats)) is None:
            continue
        for _, cores in _thread_fields(pid, "Cpus_allowed_list"):
            found.setdefault(part, set()).add(cores)
    return {part: "+".join(sorted(lists)) for part, lists in sorted(found.items())}


def pin(pid: int, cores: set[int]) -> None:
    """Every thread of process ``pid`` to ``cores`` (threads made later inherit it from
    the thread that makes them)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread gone meanwhile
            os.sched_setaffinity(int(task.name), cores)
