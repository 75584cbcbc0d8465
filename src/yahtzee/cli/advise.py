"""``yahtzee advise SITUATION``: every option ranked by expected final total, or with
``--target N`` by the chance to finish with at least N points."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..core import InvalidInput, RuleSet, Situation
from ..core.language import _, speaking
from ..render.numbers import decimal, percent
from ._io import add_rules_option, print_json, whole_number
from .progress import compile_first, solver_progress
from .tables import EXIT_STOPPED, build_left

MAX_TOP = 1000  # more than any situation has options

if TYPE_CHECKING:
    from ..solver import Advice

SAME_AS_BEST = 5e-10  # a regret this small prints as "best"
MAX_TARGET = 10_000  # far above any total; the table's own range is checked after


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "advise",
        help=_("rank a situation's options by expected score (or chance to reach a target)"),
        description=_(
            "Rank every option of a situation: DICE ROLLS_LEFT [BOX=POINTS ...] "
            "[bonus=N], for example: yahtzee advise 13356 2 aces=3 fh=25 yz=50. With --target "
            "N, rank them by the chance to finish with at least N points instead (the first "
            "time, building the table for it takes minutes; it is cached after)."
        ),
    )
    parser.add_argument(
        "situation", nargs="+", metavar=_("situation"),
        help=_("dice, rolls left (0-2) and filled boxes"),
    )  # fmt: skip
    add_rules_option(parser)
    parser.add_argument(
        "--target",
        type=whole_number(0, MAX_TARGET),
        metavar="N",
        help=_("rank by the chance of a final total of at least N (for example 300)"),
    )
    parser.add_argument(
        "--top", type=whole_number(1, MAX_TOP), default=None, metavar="N",
        help=_("show the best N options only, 1 to {most} (default: every option)").format(
            most=MAX_TOP
        ),
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help=_("print JSON"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = RuleSet.named(args.rules)
    situation = Situation.parse(" ".join(args.situation), rules=rules)
    if args.target is not None:
        return _run_target(args, situation, rules)
    from ..solver import cached_solver  # noqa: PLC0415 - numba loads only here

    with solver_progress(_("Solving {rules}").format(rules=rules.name)) as progress:
        solver = cached_solver(rules, progress=progress)
    advice = solver.advise(situation)
    options = advice.options[: args.top]
    if args.json:
        with speaking("en"):  # (words in the JSON, an option's text, stay English)
            data = advice.to_dict()
        data["options"] = data["options"][: len(options)]
        print_json(data)
        return 0
    print(
        _("{situation}  ({rules} rules; expected final totals with optimal play)").format(
            situation=situation, rules=rules.name
        )
    )
    for option in options:
        regret = advice.best.value - option.value
        # Translators: an option as good as the best one, in the column of points lost
        loss = _("best") if regret < SAME_AS_BEST else "-" + decimal(regret, 4, grouping=False)
        value = decimal(option.value, 4, grouping=False)
        print(f"  {value:>9}  {loss:>9}  {option.text}")
    return 0


def _run_target(args: argparse.Namespace, situation: Situation, rules: RuleSet) -> int:
    """The options ranked by the best chance of a final total of at least ``args.target``."""
    from ..solver import TargetSolver  # noqa: PLC0415 - numba loads only here
    from ..solver.curve_table import TABLE_CAP  # noqa: PLC0415

    target: int = args.target
    card = situation.card
    if target - card.total > TABLE_CAP:  # said before a first use spends minutes on the table
        raise InvalidInput(
            _("A target can be at most {cap} points above the card's total ({most} here).").format(
                cap=TABLE_CAP, most=card.total + TABLE_CAP
            )
        )
    try:
        compile_first("curves", _("the win-chance kernels"))
        label = _("Building the target table ({rules})").format(rules=rules.name)
        with solver_progress(label) as progress:
            solver = TargetSolver.load(rules, progress=progress, on_notice=_tell)
    except KeyboardInterrupt:
        stopped = _("Stopped (Ctrl-C) before the target table was ready: {left}.")
        print("\n" + stopped.format(left=build_left()), file=sys.stderr)
        return EXIT_STOPPED
    advice = solver.advise(situation, target=target)
    options = advice.options[: args.top]
    if args.json:
        with speaking("en"):
            print_json(target_dict(advice, target, len(options)))
        return 0
    print(
        _(
            "{situation}  ({rules} rules; chance of a final total of at least {target} "
            "with the best play for it)"
        ).format(situation=situation, rules=rules.name, target=target)
    )
    for option in options:
        regret = advice.best.value - option.value
        loss = _("best") if regret < SAME_AS_BEST else "-" + percent(regret, 2)
        print(f"  {percent(option.value, 2):>8}  {loss:>8}  {option.text}")
    return 0


def _tell(message: str) -> None:
    print(f"yahtzee: {message}", file=sys.stderr, flush=True)


def target_dict(advice: Advice, target: int, count: int) -> dict[str, Any]:
    """The JSON of target advice: each option's chance of reaching ``target``
    (``probability``, 0 to 1) and the chance it gives up against the best (``regret``)."""
    data = advice.to_dict()
    options = data.pop("options")[:count]
    for option in options:
        regret = option.pop("regret")
        option["probability"] = option.pop("value")
        option["regret"] = regret
    return {**data, "target": target, "options": options}
