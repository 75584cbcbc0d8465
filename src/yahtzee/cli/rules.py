"""``yahtzee rules [NAME]``: a rule set in words."""

from __future__ import annotations

import argparse
from typing import Any

from ..core import RuleSet


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "rules",
        help="print a rule set in words",
        description="Print a rule set in words (the official rules by default).",
    )
    parser.add_argument("name", nargs="?", default="official", help="rule set name")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    rules = RuleSet.named(args.name)
    print(rules.describe())
    others = [name for name in RuleSet.names() if name != rules.name]
    print()
    print(f"Other rule sets: {', '.join(others)}. Add '+playoff' to any name to settle ties")
    print("for first place by a one-roll playoff.")
    return 0
