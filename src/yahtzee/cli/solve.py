"""``yahtzee solve``: build the optimal-strategy table and print the expected score."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..core import RuleSet
from ._io import add_rules_option, print_json
from .progress import solver_progress


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "solve",
        help="build the optimal strategy and print the expected score",
        description="Solve a rule set exactly, cache the table, and print the expected score "
        "of optimal solitaire play from an empty card.",
    )
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..solver import Solver  # noqa: PLC0415 - numba loads only for solver commands

    rules = RuleSet.named(args.rules)
    start = time.perf_counter()
    with solver_progress(f"Solving {rules.name}") as progress:
        solver = Solver.build(rules, progress=progress)
    seconds = time.perf_counter() - start
    path = solver.save()
    value = solver.expected_total()
    if args.json:
        print_json({"rules": rules.name, "expected_total": value, "seconds": seconds,
                    "table": str(path)})  # fmt: skip
    else:
        print(f"{rules.name}: expected final score {value:.4f} with optimal play")
        print(f"solved in {seconds:.2f} s; table cached at {path}")
    return 0
