"""``yahtzee tables``: the win-chance tables on this machine: see them, build them, clear them.

``status [--json]``: each rule set's tables (there or not, their size, the build under way
and the process that builds); ``build [--rules NAME]``: build a rule set's tables with a
progress bar, joining a build already under way (Ctrl-C stops watching, not the build);
``clear [--rules NAME]``: remove tables. A mistake (an unknown rule set, a cache that
cannot be written, a full disk) is one line and exit status 2, and the tables there stay.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from ..core import RuleSet
from ..core.language import _, ngettext
from ..render.numbers import decimal
from ..solver.builds import LOG_NAME, MB, BuildState, Job, JobProgress, read_state
from ..solver.cache import cache_dir
from ..solver.win_tables import TableInfo, clear_tables, ensure_tables, tables_status
from ._io import rules_help

if TYPE_CHECKING:
    from rich.progress import TaskID

EXIT_STOPPED = 130


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tables",
        help=_("see, build or clear the win-chance tables"),
        description=(
            _(
                "The tables behind the win-chance meter and the 'winning' bot: built once per "
                "machine (a few minutes, about 150 MB), by one builder in the background."
            )
        ),
    )
    parser.set_defaults(run=_status, json=False)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    status = actions.add_parser("status", help=_("each rule set's tables and the build under way"))
    status.add_argument("--json", action="store_true", help=_("as JSON"))
    status.set_defaults(run=_status)
    build = actions.add_parser(
        "build", help=_("build a rule set's tables (or join the build under way)")
    )
    build.add_argument("--rules", default="official", metavar="NAME", help=rules_help())
    build.set_defaults(run=_build)
    clear = actions.add_parser("clear", help=_("remove tables (every rule set's by default)"))
    clear.add_argument(
        "--rules",
        default=None,
        metavar="NAME",
        help=rules_help(_("only this rule set's tables"), None),
    )
    clear.set_defaults(run=_clear)


# status -------------------------------------------------------------------------------


def _status(args: argparse.Namespace) -> int:
    infos, state = tables_status()
    if args.json:
        print(json.dumps(_as_json(infos, state), indent=2))
        return 0
    print(_("Win-chance tables in {folder}:").format(folder=cache_dir()))
    width = max(len(i.rules) for i in infos)
    for info in infos:
        print(f"  {info.rules:<{width}}  {info.kind:<12}  {_state_of(info)}")
    if state is not None and not state.live and state.ended is None:
        print(
            _("The build of process {pid} was stopped before its end: the next asks again.").format(
                pid=state.pid
            )
        )
    elif state is not None and not state.live and state.error:
        print(_("The last build stopped: {error}").format(error=state.error))
    log = cache_dir() / LOG_NAME
    if log.exists():
        print(_("The builders' log: {file}").format(file=log))
    return 0


def _state_of(info: TableInfo) -> str:
    if info.building is not None:
        job = info.building
        if job.total:
            return _("building: layer {done} of {total} (process {pid})").format(
                done=job.done, total=job.total, pid=info.builder
            )
        return _("building: starting (process {pid})").format(pid=info.builder)
    if info.size is None:
        return _("not built")
    return _("ready, {size}").format(size=_mb(info.size))


def _as_json(infos: list[TableInfo], state: BuildState | None) -> dict[str, object]:
    build: dict[str, object] | None = None
    if state is not None:
        build = {
            "pid": state.pid,
            "running": state.live,
            "detached": state.detached,
            "started": state.started,
            "ended": state.ended,
            "error": state.error,
            "expected_bytes": state.expected_bytes,
            "expected_seconds": state.expected_seconds,
            "jobs": [asdict(j) for j in state.jobs],
        }
    tables = [
        {
            "rules": i.rules,
            "kind": i.kind,
            "present": i.size is not None,
            "bytes": i.size,
            "path": str(i.path),
            "building": None
            if i.building is None
            else {"done": i.building.done, "total": i.building.total, "pid": i.builder},
        }
        for i in infos
    ]
    log = cache_dir() / LOG_NAME
    return {
        "cache": str(cache_dir()),
        "tables": tables,
        "build": build,
        "log": str(log) if log.exists() else None,
    }


def _mb(size: int) -> str:
    megabytes = decimal(size / MB, 0 if size >= MB else 1, grouping=False)
    return _("{size} MB").format(size=megabytes)


# build --------------------------------------------------------------------------------


def _build(args: argparse.Namespace) -> int:
    rules = RuleSet.named(args.rules)
    infos, state = tables_status([rules])
    if all(i.size is not None for i in infos):
        size = sum(i.size or 0 for i in infos)
        print(
            _("The {rules} tables are there ({size} in {folder}).").format(
                rules=rules.name, size=_mb(size), folder=cache_dir()
            )
        )
        return 0
    if state is not None and state.live and state.current is not None:
        print(
            _("Joining the build under way (process {pid}).").format(pid=state.pid),
            file=sys.stderr,
        )
    try:
        with _bars(rules.name) as progress:
            # a player waits for these: every core (a game's or a server's build uses one)
            ensure_tables(rules, progress=progress, on_notice=_tell, threads=os.cpu_count() or 1)
    except KeyboardInterrupt:
        now = read_state()
        if now is not None and now.live:
            line = _(
                "Stopped watching; the build goes on in the background (process {pid}). "
                "'yahtzee tables status' shows how far it is."
            )
        else:
            line = _(
                "Stopped watching; the build goes on in the background. "
                "'yahtzee tables status' shows how far it is."
            )
        print("\n" + line.format(pid=now.pid if now is not None else 0), file=sys.stderr)
        return EXIT_STOPPED
    infos, _others = tables_status([rules])
    size = sum(i.size or 0 for i in infos)
    print(
        _("The {rules} tables are ready ({size} in {folder}).").format(
            rules=rules.name, size=_mb(size), folder=cache_dir()
        )
    )
    return 0


def build_left() -> str:
    """What a Ctrl-C left of a build of the win tables, for the line that says it stopped:
    the background build going on (it is kept), or nothing kept."""
    now = read_state()
    if now is not None and now.live:
        return _(
            "the tables' build goes on in the background (process {pid}) and is kept; "
            "'yahtzee tables status' shows how far it is"
        ).format(pid=now.pid)
    return _("nothing kept: the next run builds it again")


def _tell(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@contextmanager
def _bars(name: str) -> Iterator[JobProgress]:
    """One progress bar per table on stderr (a terminal), else a line per layer."""
    if not sys.stderr.isatty():

        def line(job: Job, done: int, total: int) -> None:
            line = _("{table}: {done} of {total} layers").format(
                table=_table(name, job.kind), done=done, total=total
            )
            print(line, file=sys.stderr, flush=True)

        yield line
        return
    from rich.console import Console  # noqa: PLC0415 - only when a terminal shows it
    from rich.progress import Progress as Bar  # noqa: PLC0415

    tasks: dict[str, TaskID] = {}
    with Bar(console=Console(stderr=True), transient=False) as bar:

        def report(job: Job, done: int, total: int) -> None:
            if job.kind not in tasks:
                tasks[job.kind] = bar.add_task(_table(name, job.kind), total=total)
            bar.update(tasks[job.kind], completed=done, total=total)

        yield report
        time.sleep(0.05)  # the last update drawn


# clear --------------------------------------------------------------------------------


def _clear(args: argparse.Namespace) -> int:
    rules = RuleSet.named(args.rules) if args.rules else None
    removed = clear_tables(rules)
    if not removed:
        print(_("No tables to clear."))
        return 0
    size = sum(i.size or 0 for i in removed)
    names = ", ".join(f"{i.rules} {i.kind}" for i in removed)
    removed_line = ngettext(
        "Removed {n} table ({size}): {names}.",
        "Removed {n} tables ({size}): {names}.",
        len(removed),
    )
    print(removed_line.format(n=len(removed), size=_mb(size), names=names))
    return 0


def _table(rules: str, kind: str) -> str:
    """A table's name for a player: "official distribution table"."""
    if kind == "distribution":
        return _("{rules} distribution table").format(rules=rules)
    if kind == "target":
        return _("{rules} target table").format(rules=rules)
    return f"{rules} {kind} table"
