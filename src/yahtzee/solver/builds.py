"""One build of the win tables at a time on this machine, never lost.

Every process of the user (terminal game, server, command line, benchmark) goes through
`obtain` for a table that is not on disk yet. Three files in the cache folder:

* ``builds.lock``: held (``flock``) by the one process that builds, for as long as it
  builds. The kernel lets go of it when that process ends, even killed by SIGKILL, so a
  lock that can be taken means that nobody builds, whatever the state file says.
* ``builds.json``: the state of the latest build, rewritten atomically by its builder at
  each layer: its jobs (rule set, kind, layers done of how many), the builder's pid, when
  it started, the size and time it is expected to take, how it ended.
* ``builds.log``: what detached builders printed (their start, their end, an error).

When nobody builds and a table is missing, `obtain` takes the lock itself and
starts a *detached* builder (its own session, stdin and stdout away from any terminal, a
low priority, one thread) that inherits the held lock: there is no moment when a second
process could start another. The builder goes on after the program that started it ends,
and any other process that asks for the tables follows its progress in the state file.
A builder that died (the lock is free, the tables are not all there) is replaced by a new
one, which starts over: tables are written atomically (a temporary file renamed over the
table), so a killed builder leaves nothing half-written under a table's name.

Nothing here knows the tables' format: a `Job` names its file, and whoever builds
passes the function that builds one (see `win_tables`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..core import RuleSet, YahtzeeError
from ..core.language import _, ngettext
from .cache import CACHE_ENV, cache_dir
from .child import python_child
from .curve_build import Kind, Progress

_log = logging.getLogger(__name__)

MB = 1_000_000

# What a table of the official rules takes: the first build says it, status shows it.
# The other rule sets' tables are about as big and as long to build.
EXPECTED_BYTES: dict[Kind, int] = {"distribution": 79 * MB, "target": 69 * MB}
"""Bytes each kind of table takes on disk (measured: docs/benchmarks/winning.md)."""
EXPECTED_SECONDS: dict[Kind, int] = {"distribution": 80, "target": 115}
"""Seconds each kind of table takes a builder on one core of a quiet 2-core machine, the
kernels' compiling included (measured: docs/benchmarks/winning.md)."""
PARALLEL_SHARE = 0.5
"""How much of a build's time more cores take off (the kernels' compiling runs on one, and
two cores of this machine build the curves 1.6 times as fast as one): its time on ``n``
cores is about ``1 - share + share / n`` of its time on one (measured: 194 s on one core
from empty caches, 147 s on two)."""

NICE = 10
"""The builder's priority (``os.nice``): below a game or a server beside it."""
THREADS = 1
"""The background builder's threads (``NUMBA_NUM_THREADS``): one core, the others stay
free for the game or the server that asked for it. ``yahtzee tables build``, which a
player runs to wait for the tables, gives its builder every core."""
MAX_STARTS = 3
"""Builders one `obtain` starts for its tables before it gives up (each dead one
is replaced; one that reports an error is not)."""
POLL_S = 0.25
"""Seconds between two looks at the state file while following a build."""

NO_BUILDS_ENV = "YAHTZEE_NO_TABLE_BUILDS"
"""Set (to anything) to keep processes from building tables aside (the test suite): a
process that needs a table then builds it itself, and nothing asks for one in the
background."""
BASE_MASK_ENV = "YAHTZEE_TEST_BUILD_BASE_MASK"
"""Test only: builders build just the states whose card holds these boxes (the number of
``build(..., base_mask=)``, e.g. that of ``winning.late_card()``): a real build in a
second or two, saved under the table's usual name. Never set it outside tests."""
LAYER_DELAY_ENV = "YAHTZEE_TEST_BUILD_LAYER_DELAY"
"""Test only: builders wait this many seconds after each layer, so that a test can kill
one mid-build."""
HOLD_ENV = "YAHTZEE_TEST_BUILD_HOLD"
"""Test only: a path; builders wait after their first layer until a file is there (at most
`HOLD_MAX_S`), so that a test acts on a build under way however slow the machine."""
HOLD_MAX_S = 300.0

LOCK_NAME = "builds.lock"
STATE_NAME = "builds.json"
LOG_NAME = "builds.log"
LOG_LIMIT = 1 * MB  # the log starts afresh when it grew past this
STALE_S = 60  # temporary table files untouched this long are a dead writer's
_BUILDER = "from yahtzee.solver.win_tables import builder_main; builder_main()"


def _held(release: Path) -> None:
    """Test only (`HOLD_ENV`): wait until ``release`` exists (at most `HOLD_MAX_S`)."""
    until = time.monotonic() + HOLD_MAX_S
    while not release.exists() and time.monotonic() < until:
        time.sleep(0.05)


class TableBuildError(YahtzeeError):
    """The tables cannot be built (the message says why, in one line, for a player)."""


class CacheNotWritable(TableBuildError):
    """The cache folder cannot be written (no table can be built or cached there)."""


@dataclass(frozen=True)
class Job:
    """One table to build: its rule set (a registered name), its kind and its file."""

    rules: str
    kind: Kind
    path: Path

    @property
    def checkpoint(self) -> Path:
        """Where a build could keep its finished layers to resume from them after a
        builder died (a hook for later: nothing is written there yet, a new builder
        starts over)."""
        return self.path.parent / "checkpoints" / self.path.stem


@dataclass
class JobState:
    """A job as the state file tells it."""

    rules: str
    kind: Kind
    path: str
    done: int = 0
    total: int = 0
    finished: bool = False


@dataclass
class BuildState:
    """The latest build as its state file tells it; ``live``: its builder still runs."""

    pid: int
    started: float
    jobs: list[JobState]
    detached: bool
    ended: float | None = None
    error: str | None = None
    threads: int = THREADS
    live: bool = field(default=False, compare=False)

    def job(self, path: Path) -> JobState | None:
        """The job that builds the table at ``path`` (rule sets that score alike share it)."""
        return next((j for j in self.jobs if Path(j.path) == path), None)

    @property
    def current(self) -> JobState | None:
        """The job being built (the first not finished)."""
        return next((j for j in self.jobs if not j.finished), None)

    @property
    def expected_bytes(self) -> int:
        """What the build's tables take on disk, about."""
        return sum(EXPECTED_BYTES[j.kind] for j in self.jobs)

    @property
    def expected_seconds(self) -> int:
        """How long the build takes on a quiet machine, about."""
        return expected_seconds([j.kind for j in self.jobs], self.threads)


def registered(rules: RuleSet) -> bool:
    """Whether a builder can get these rules by their name (a registered rule set)."""
    try:
        return RuleSet.named(rules.name) == rules
    except YahtzeeError:
        return False


def may_detach(rules: RuleSet) -> bool:
    """Whether this process may have these rules' tables built by a detached builder."""
    return not os.environ.get(NO_BUILDS_ENV) and registered(rules)


def restricted_base_mask() -> int:
    """The boxes a test restricts builds to (`BASE_MASK_ENV`), else 0 (every state)."""
    return int(os.environ.get(BASE_MASK_ENV) or 0)


def expected_seconds(kinds: Sequence[Kind], threads: int = THREADS) -> int:
    """How long a builder with ``threads`` threads takes for these tables, about."""
    cores = max(1, min(threads, os.cpu_count() or 1))
    one = sum(EXPECTED_SECONDS[k] for k in kinds)
    return round(one * (1 - PARALLEL_SHARE + PARALLEL_SHARE / cores))


def notice(jobs: Sequence[Job], threads: int = THREADS) -> str:
    """What a first build says once: what it builds, its size on disk and its time."""
    names = sorted({j.rules for j in jobs})
    size = sum(EXPECTED_BYTES[j.kind] for j in jobs)
    seconds = expected_seconds([j.kind for j in jobs], threads)
    minutes = max(1, round(seconds / 60))
    if threads == 1:
        text = ngettext(
            "Building the win-chance table of {names} in the background: about {size} MB on "
            "disk, about {minutes} min on a quiet machine (once; one core, low priority).",
            "Building the win-chance tables of {names} in the background: about {size} MB on "
            "disk, about {minutes} min on a quiet machine (once; one core, low priority).",
            len(jobs),
        )
    else:
        text = ngettext(
            "Building the win-chance table of {names} in the background: about {size} MB on "
            "disk, about {minutes} min on a quiet machine (once; every core, low priority).",
            "Building the win-chance tables of {names} in the background: about {size} MB on "
            "disk, about {minutes} min on a quiet machine (once; every core, low priority).",
            len(jobs),
        )
    return text.format(names=", ".join(names), size=size // MB, minutes=minutes)


# The state file and the lock ------------------------------------------------------------


def read_state(directory: Path | None = None) -> BuildState | None:
    """The latest build's state (``None``: no build yet, or a file that cannot be read),
    with ``live`` set when its builder still holds the lock."""
    folder = directory or cache_dir()
    try:
        data = json.loads((folder / STATE_NAME).read_text(encoding="utf-8"))
        jobs = [JobState(**j) for j in data.pop("jobs")]
        state = BuildState(jobs=jobs, **data)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    state.live = builder_running(folder)
    return state


def write_state(directory: Path, state: BuildState) -> None:
    """Write the state atomically (a reader sees the old state or the new)."""
    data = asdict(state)
    data.pop("live")
    fd, temp = tempfile.mkstemp(dir=directory, prefix=".builds-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file)
        os.replace(temp, directory / STATE_NAME)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def builder_running(directory: Path | None = None) -> bool:
    """Whether a process holds the build lock of this cache folder (it builds)."""
    try:
        fd = os.open((directory or cache_dir()) / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (also lets go of the shared lock just taken)
    return False


def _take_lock(directory: Path) -> int | None:
    """The build lock, held (an open file), or ``None`` when another process holds it."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise CacheNotWritable(
            _("Cannot write to the table cache {directory}: {reason}.").format(
                directory=directory, reason=error.strerror or error
            )
        ) from error
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def check_room(directory: Path, jobs: Sequence[Job]) -> None:
    """Refuse a build that the disk has no room for (before it starts: nothing is touched)."""
    need = sum(EXPECTED_BYTES[j.kind] for j in jobs)
    try:
        free = shutil.disk_usage(directory).free
    except OSError:
        return
    if free < need:
        raise TableBuildError(
            _(
                "Not enough disk space for the tables: they need about {need} MB and "
                "{directory} has {free} MB free."
            ).format(need=need // MB, directory=directory, free=free // MB)
        )


def describe(error: BaseException) -> str:
    """One line for a player about why a build stopped."""
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        if error.filename:
            return _("The disk is full: cannot write {file}.").format(file=error.filename)
        return _("The disk is full: cannot write the table.")
    if isinstance(error, OSError):
        return f"{error.strerror or error}: {error.filename}" if error.filename else str(error)
    return str(error) or type(error).__name__


# Building -----------------------------------------------------------------------------

BuildOne = Callable[[Job, Progress], None]
"""Builds one job's table and saves it to ``job.path``, reporting layers done."""
JobProgress = Callable[[Job, int, int], None]


def run_jobs(
    directory: Path, jobs: Sequence[Job], build_one: BuildOne, *, detached: bool,
    progress: JobProgress | None = None, threads: int = THREADS,
) -> None:  # fmt: skip
    """Build every job whose table is missing, keeping the state file up to date. Only
    for the holder of the build lock (a detached builder, or a process building itself)."""
    listed = [JobState(j.rules, j.kind, str(j.path)) for j in jobs]
    state = BuildState(os.getpid(), time.time(), listed, detached, threads=threads)
    write_state(directory, state)
    _tidy(directory)
    delay = float(os.environ.get(LAYER_DELAY_ENV) or 0)
    hold = os.environ.get(HOLD_ENV)
    try:
        for job, told in zip(jobs, state.jobs, strict=True):
            if not job.path.exists():

                def report(done: int, total: int, job: Job = job, told: JobState = told) -> None:
                    told.done, told.total = done, total
                    write_state(directory, state)
                    if progress:
                        progress(job, done, total)
                    if delay and done:
                        time.sleep(delay)
                    if hold and done:
                        _held(Path(hold))

                build_one(job, report)
            told.finished = True
            write_state(directory, state)
    except BaseException as error:
        state.error = describe(error)
        raise
    finally:
        state.ended = time.time()
        with contextlib.suppress(OSError):
            write_state(directory, state)


def _tidy(directory: Path) -> None:
    """Remove what dead writers left (the lock is held: nobody else writes tables now)."""
    stale = time.time() - STALE_S
    for leftover in [*directory.glob("curves-*.tmp"), *directory.glob(".builds-*.tmp")]:
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < stale:
                leftover.unlink()


def _spawn(directory: Path, jobs: Sequence[Job], fd: int, threads: int) -> int:
    """Start a detached builder for ``jobs`` that inherits the held lock ``fd``."""
    env = {
        **os.environ,
        CACHE_ENV: str(directory),
        "NUMBA_NUM_THREADS": str(threads),
        "OMP_NUM_THREADS": str(threads),
        "OPENBLAS_NUM_THREADS": str(threads),
        "MKL_NUM_THREADS": str(threads),
    }
    log = directory / LOG_NAME
    with contextlib.suppress(OSError):
        if log.stat().st_size > LOG_LIMIT:
            log.unlink()
    specs = [f"{j.rules}:{j.kind}" for j in jobs]
    with log.open("ab") as out:
        child = subprocess.Popen(
            python_child(_BUILDER, str(fd), str(directory), *specs),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            pass_fds=(fd,),
            start_new_session=True,
            cwd=directory,
            env=env,
        )
    # reaped as soon as it ends (no zombie in ``ps`` while this process lives on)
    threading.Thread(target=child.wait, name=f"builder {child.pid}", daemon=True).start()
    told = [JobState(j.rules, j.kind, str(j.path)) for j in jobs]
    started = BuildState(child.pid, time.time(), told, detached=True, threads=threads)
    write_state(directory, started)
    return child.pid


def obtain(
    jobs: Sequence[Job],
    directory: Path | None = None,
    *,
    progress: JobProgress | None = None,
    on_notice: Callable[[str], None] | None = None,
    on_ready: Callable[[Job], None] | None = None,
    detach: bool = True,
    build_here: BuildOne | None = None,
    threads: int = THREADS,
) -> None:
    """Return once every job's table file is there: a build already running is followed
    (``progress`` hears its layers), and when none runs, one is started: with ``detach``
    a detached builder that goes on after this process ends, else ``build_here`` in this
    process, under the lock (a builder started here uses ``threads`` threads).
    ``on_notice`` hears what a build this call starts will take;
    ``on_ready`` hears each job as soon as its table is there. Blocks, but each wait is a
    short sleep: a Ctrl-C or the end of the process stops it (a detached build goes on).

    Raises `TableBuildError`: the cache cannot be written, no room on the disk, a
    builder this call started reported an error or died `MAX_STARTS` times."""
    folder = directory or cache_dir()
    starts, mine = 0, 0
    told: dict[Job, tuple[int, int]] = {}
    ready: set[Job] = set()

    def look() -> list[Job]:
        missing = []
        for job in jobs:
            if not job.path.exists():
                missing.append(job)
            elif job not in ready:
                ready.add(job)
                total = told.get(job, (0, 0))[1]
                if progress and total and told[job] != (total, total):
                    progress(job, total, total)  # (its last layers may have gone unseen)
                if on_ready:
                    on_ready(job)
        return missing

    while missing := look():
        fd = _take_lock(folder)
        if fd is not None:
            try:
                missing = [j for j in jobs if not j.path.exists()]
                if not missing:
                    continue  # finished meanwhile
                _may_start(folder, missing, starts, mine)
                _log.info("%s", notice(missing, threads))
                if on_notice and not starts:
                    on_notice(notice(missing, threads))
                starts += 1
                if detach or build_here is None:
                    try:
                        mine = _spawn(folder, missing, fd, threads)
                        continue  # and follow it
                    except OSError as error:
                        if build_here is None:
                            raise TableBuildError(describe(error)) from error
                        _log.warning("cannot start a table builder (%s); building here", error)
                here = os.cpu_count() or 1  # numba's own default in this process
                run_jobs(folder, missing, build_here, detached=False, progress=progress,
                         threads=here)  # fmt: skip
                look()
                return  # (a table that could not be saved is the caller's, in memory)
            finally:
                os.close(fd)
        state = read_state(folder)
        if progress and state is not None and state.live:
            for job in missing:
                found = state.job(job.path)
                if found is not None and found.total and told.get(job) != (found.done, found.total):
                    told[job] = (found.done, found.total)
                    progress(job, found.done, found.total)
        time.sleep(POLL_S)


def _may_start(folder: Path, missing: Sequence[Job], starts: int, mine: int) -> None:
    """Refuse to start a build (lock held): the last one this call started reported an
    error, too many died, or the disk has no room."""
    last = read_state(folder)
    if starts and last is not None and last.pid == mine and last.error:
        raise TableBuildError(last.error)
    if starts >= MAX_STARTS:
        raise TableBuildError(
            _("The table builder stopped {starts} times before the end (see {folder}).").format(
                starts=starts, folder=folder / LOG_NAME
            )
        )
    check_room(folder, missing)
