"""The win tables on this machine: ask for them, see how far they are, clear them.

The two score-curve tables of a rule set (``distribution`` for the win meter, ``target``
for the ``winning`` strategy, see `curve_table`) take minutes to build; the machine
builds them once, in one detached builder at a time (`builds`).

* `ensure_tables`: wait until a rule set's tables are on disk, joining a build
  under way or starting one (``yahtzee tables build``);
* `request_tables` and `table_progress`: the same from a background thread,
  once per process, then loaded (the win meter of a game or of the server);
* `tables_status` and `clear_tables`: what ``yahtzee tables`` shows and removes;
* `builder_main`: the program of the detached builder.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core import RuleSet
from ..core.language import _
from .builds import (
    NICE,
    NO_BUILDS_ENV,
    THREADS,
    BuildState,
    Job,
    JobProgress,
    JobState,
    TableBuildError,
    describe,
    may_detach,
    obtain,
    read_state,
    restricted_base_mask,
    run_jobs,
    write_state,
)
from .cache import cache_dir
from .curve_build import Kind, Progress
from .curve_table import CurveTable, build, cached_table, table_loaded

WIN_KINDS: tuple[Kind, ...] = ("distribution", "target")
"""The kinds of table of a rule set, in the order they are built (the meter's first)."""

_log = logging.getLogger(__name__)


def jobs_for(rules: RuleSet, kinds: Sequence[Kind], directory: Path | None = None) -> list[Job]:
    """The jobs that build these tables of ``rules`` (in the cache folder by default)."""
    return [Job(rules.name, k, CurveTable.path_for(k, rules, directory)) for k in kinds]


def ensure_tables(
    rules: RuleSet,
    kinds: Sequence[Kind] = WIN_KINDS,
    *,
    directory: Path | None = None,
    progress: JobProgress | None = None,
    on_notice: Callable[[str], None] | None = None,
    on_ready: Callable[[Job], None] | None = None,
    threads: int = THREADS,
) -> None:
    """Return once these tables are on disk: a build under way is joined (``progress``
    hears its layers), else a detached builder with ``threads`` threads is started
    (``on_notice`` hears what it will take once); ``on_ready`` hears each table as soon
    as it is there. An explicit request: it builds aside even with
    `NO_BUILDS_ENV` set. Raises `TableBuildError` (for a
    player, in one line)."""
    jobs = jobs_for(rules, kinds, directory)
    obtain(jobs, directory, progress=progress, on_notice=on_notice, on_ready=on_ready,
           threads=threads)  # fmt: skip


# The background requests of one process (the win meter) ------------------------------

_BUILDING: dict[tuple[Kind, str], tuple[int, int]] = {}
_GUARD = threading.Lock()


def request_tables(rules: RuleSet, kinds: Sequence[Kind] = WIN_KINDS) -> None:
    """Load (or have built, then load) these tables in a background thread, once per
    process; `table_progress` says how far they are."""
    if os.environ.get(NO_BUILDS_ENV):
        return
    wanted = [k for k in kinds if not table_loaded(k, rules)]
    with _GUARD:
        wanted = [k for k in wanted if (k, rules.scoring_key) not in _BUILDING]
        for kind in wanted:
            _BUILDING[kind, rules.scoring_key] = (0, 1)
    if wanted:
        threading.Thread(target=_load, args=(rules, wanted), daemon=True).start()


def _load(rules: RuleSet, kinds: list[Kind]) -> None:
    def ready(job: Job) -> None:
        try:
            cached_table(job.kind, rules)  # at once: the meter need not wait for the other
        finally:
            _BUILDING.pop((job.kind, rules.scoring_key), None)

    def layers(job: Job, done: int, total: int) -> None:
        _BUILDING[job.kind, rules.scoring_key] = (done, total)

    try:
        if may_detach(rules):  # one builder for all of them
            ensure_tables(rules, kinds, progress=layers, on_ready=ready)
        for kind in kinds:  # loaded by now, or built here (a rule set of one's own)

            def here(done: int, total: int, kind: Kind = kind) -> None:
                _BUILDING[kind, rules.scoring_key] = (done, total)

            cached_table(kind, rules, progress=here)
    except TableBuildError as error:
        _log.warning("the win-chance tables cannot be built: %s", error)
    except Exception:
        _log.exception("could not build the tables of %s", rules.name)
    finally:
        for kind in kinds:
            _BUILDING.pop((kind, rules.scoring_key), None)


def table_progress(rules: RuleSet, kind: Kind) -> tuple[int, int] | None:
    """``(done, total)`` layers while a table is being built (by whichever process);
    ``None`` when loaded or not asked for."""
    return None if table_loaded(kind, rules) else _BUILDING.get((kind, rules.scoring_key))


# What is on disk -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    """One table of one rule set as ``yahtzee tables status`` shows it."""

    rules: str
    kind: Kind
    path: Path
    size: int | None
    """Bytes on disk; ``None`` when the table is not there."""
    building: JobState | None
    """Its job in the build under way (layers done), if it is being built or waits."""
    builder: int | None
    """The pid of the process that builds it."""


def rule_sets() -> list[RuleSet]:
    """The registered rule sets, one per set of tables (those that score alike share)."""
    seen: dict[str, RuleSet] = {}
    for name in RuleSet.names():
        rules = RuleSet.named(name)
        seen.setdefault(rules.scoring_key, rules)
    return list(seen.values())


def tables_status(
    rules: Sequence[RuleSet] | None = None, directory: Path | None = None
) -> tuple[list[TableInfo], BuildState | None]:
    """Each table of these rule sets (default: all) and the latest build's state (its
    ``live``: whether its builder still runs)."""
    state = read_state(directory)
    found = []
    for rs in rules or rule_sets():
        for job in jobs_for(rs, WIN_KINDS, directory):
            try:
                size: int | None = job.path.stat().st_size
            except OSError:
                size = None
            told = state.job(job.path) if state is not None and state.live else None
            building = told if told is not None and not told.finished else None
            pid = state.pid if building is not None and state is not None else None
            found.append(TableInfo(rs.name, job.kind, job.path, size, building, pid))
    return found, state


def current_build(directory: Path | None = None) -> BuildState | None:
    """The build under way on this machine (by whichever process), or ``None``."""
    state = read_state(directory)
    return state if state is not None and state.live and state.current is not None else None


def clear_tables(rules: RuleSet | None = None, directory: Path | None = None) -> list[TableInfo]:
    """Remove the tables of ``rules`` (default: every rule set's) and return those
    removed. Refused (`TableBuildError`, nothing removed) while they are
    being built or when the cache cannot be written."""
    infos, _unused = tables_status([rules] if rules else None, directory)
    busy = [i for i in infos if i.building is not None]
    if busy:
        raise TableBuildError(
            _(
                "The {rules} tables are being built (process {builder}): clear them once "
                "the build has ended."
            ).format(rules=busy[0].rules, builder=busy[0].builder)
        )
    present = [i for i in infos if i.size is not None]
    folder = directory or cache_dir()
    if present and not os.access(folder, os.W_OK):
        raise TableBuildError(
            _("Cannot remove the tables: {folder} is not writable.").format(folder=folder)
        )
    removed = []
    for info in present:
        try:
            info.path.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise TableBuildError(
                _("Cannot remove {path}: {reason}").format(path=info.path, reason=describe(error))
            ) from error
        removed.append(info)
    return removed


# The detached builder -------------------------------------------------------------------


def builder_main(argv: Sequence[str] | None = None) -> None:
    """The detached builder (see `builds`): ``FD FOLDER RULES:KIND...``. It holds the
    build lock ``FD`` that the process that started it took, builds each table that is
    missing, saves it atomically, and exits (1 after an error, which the state file and
    the log tell)."""
    args = list(sys.argv[1:] if argv is None else argv)
    fd, folder, specs = int(args[0]), Path(args[1]), args[2:]
    threads = int(os.environ.get("NUMBA_NUM_THREADS") or THREADS)
    os.set_inheritable(fd, False)  # the lock stays with this process (not its children)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    pid = os.getpid()
    _say(f"builder {pid} started: {' '.join(specs)}")
    try:
        jobs = []
        for spec in specs:
            name, word = spec.split(":", 1)
            if word not in WIN_KINDS:
                raise TableBuildError(_("no table of kind {word!r}").format(word=word))
            kind: Kind = word
            jobs.append(Job(name, kind, CurveTable.path_for(kind, RuleSet.named(name), folder)))

        def build_one(job: Job, report: Progress) -> None:
            table = build(job.kind, RuleSet.named(job.rules), progress=report,
                          base_mask=restricted_base_mask())  # fmt: skip
            table.save(folder)
            _say(f"builder {pid}: the {job.kind} table of {job.rules} is ready")

        run_jobs(folder, jobs, build_one, detached=True, threads=threads)
    except BaseException as error:
        _say(f"builder {pid} stopped: {describe(error)}")
        state = read_state(folder)  # (run_jobs tells its own errors)
        if state is not None and state.pid == pid and state.error is None:
            state.error, state.ended = describe(error), time.time()
            write_state(folder, state)
        raise SystemExit(1) from None
    _say(f"builder {pid} finished")


def _say(line: str) -> None:
    print(time.strftime("%Y-%m-%d %H:%M:%S"), line, flush=True)
