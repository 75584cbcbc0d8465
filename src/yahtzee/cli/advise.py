"""``yahtzee advise SITUATION``: every option ranked by expected final total."""

from __future__ import annotations

import argparse
from typing import Any

from ..core import InvalidInput, RuleSet, Situation
from ._io import add_rules_option, print_json
from .progress import solver_progress

SAME_AS_BEST = 5e-10  # a regret this small prints as "best"


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "advise",
        help="rank every option of a situation by expected final score",
        description="Rank every option of a situation: DICE ROLLS_LEFT [BOX=POINTS ...] "
        "[bonus=N], for example: yahtzee advise 13356 2 aces=3 fh=25 yz=50",
    )
    parser.add_argument("situation", nargs="+", help="dice, rolls left (0-2) and filled boxes")
    add_rules_option(parser)
    parser.add_argument("--top", type=int, default=0, metavar="N", help="show the best N only")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.top < 0:
        raise InvalidInput("--top takes 0 (every option) or a positive number.")
    situation = Situation.parse(" ".join(args.situation))
    rules = RuleSet.named(args.rules)
    from ..solver import cached_solver  # noqa: PLC0415 - numba loads only here

    with solver_progress(f"Solving {rules.name}") as progress:
        solver = cached_solver(rules, progress=progress)
    advice = solver.advise(situation)
    options = advice.options[: args.top] if args.top > 0 else advice.options
    if args.json:
        data = advice.to_dict()
        data["options"] = data["options"][: len(options)]
        print_json(data)
        return 0
    print(f"{situation}  ({rules.name} rules; expected final totals with optimal play)")
    for option in options:
        regret = advice.best.value - option.value
        loss = "best" if regret < SAME_AS_BEST else f"-{regret:.4f}"
        print(f"  {option.value:9.4f}  {loss:>9}  {option.text}")
    return 0
