"""``yahtzee solve``: build the optimal-strategy table and print the expected score, with
the standard deviation and percentiles of the final score."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from ..core import RuleSet
from ..core.language import _
from ..render.numbers import decimal
from ._io import add_rules_option, print_json
from .progress import compile_first, solver_progress
from .tables import EXIT_STOPPED


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "solve",
        help=_("build the optimal strategy and print the expected score and its spread"),
        description=_(
            "Solve a rule set exactly, cache the table, and print the expected score "
            "of optimal solitaire play from an empty card, with the standard deviation and "
            "percentiles of the final score (its exact distribution takes about a minute the "
            "first time; it is cached after)."
        ),
    )
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help=_("print JSON"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..solver import Solver  # noqa: PLC0415 - numba loads only for solver commands
    from ..solver.distribution import start_distribution_kept  # noqa: PLC0415

    rules = RuleSet.named(args.rules)
    compile_first("build", _("the solver's kernels"))
    start = time.perf_counter()
    try:
        with solver_progress(_("Solving {rules}").format(rules=rules.name)) as progress:
            solver = Solver.build(rules, progress=progress)
    except KeyboardInterrupt:
        print("\n" + _("Stopped (Ctrl-C) before the table was solved: nothing kept."),
              file=sys.stderr)  # fmt: skip
        return EXIT_STOPPED
    seconds = time.perf_counter() - start
    path = solver.save()
    value = solver.expected_total()
    try:
        if not start_distribution_kept(rules):  # else read from a file: nothing to compile
            compile_first("curves", _("the distribution's kernels"))
        label = _("Final score distribution ({rules})").format(rules=rules.name)
        with solver_progress(label) as progress:
            distribution = solver.distribution(progress=progress)
    except KeyboardInterrupt:
        stopped = _(
            "Stopped (Ctrl-C): the table is solved and kept ({path}; expected final score "
            "{value}); its score distribution was not finished."
        ).format(path=path, value=decimal(value, 4, grouping=False))
        print("\n" + stopped, file=sys.stderr)
        return EXIT_STOPPED
    percentiles = distribution.percentiles()
    if args.json:
        print_json({"rules": rules.name, "expected_total": value, "std": distribution.std,
                    "percentiles": percentiles, "seconds": seconds,
                    "table": str(path)})  # fmt: skip
    else:
        print(
            _("{rules}: expected final score {value} with optimal play").format(
                rules=rules.name, value=decimal(value, 4, grouping=False)
            )
        )
        print(
            _("standard deviation {std}; percentiles {which}: {values}").format(
                std=decimal(distribution.std, 2, grouping=False),
                which="/".join(percentiles),
                values=" / ".join(map(str, percentiles.values())),
            )
        )
        print(_("solved in {seconds} s; table cached at {path}").format(
            seconds=decimal(seconds, 2, grouping=False), path=path))  # fmt: skip
    return 0
