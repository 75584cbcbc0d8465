"""``yahtzee rules [NAME]``: a rule set in words."""

from __future__ import annotations

import argparse
from typing import Any

from ..core import RuleSet
from ..core.language import _


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "rules",
        help=_("print a rule set in words"),
        description=_("Print a rule set in words (the official rules by default)."),
    )
    parser.add_argument(
        "name", nargs="?", default="official", metavar=_("name"), help=_("rule set name")
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = RuleSet.named(args.name)
    print(rules.describe())
    others = [name for name in RuleSet.names() if name != rules.name]
    print()
    print(
        _(
            "Other rule sets: {names}. Add '+playoff' to any name to settle ties\n"
            "for first place by a one-roll playoff."
        ).format(names=", ".join(others))
    )
    return 0
