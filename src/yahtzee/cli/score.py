"""``yahtzee score DICE``: every legal box for a roll, with its points."""

from __future__ import annotations

import argparse
from typing import Any

from ..core import Dice, RuleSet
from ._io import add_rules_option, print_json, read_card


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help="show what a roll scores in each legal box",
        description="Show every legal box for a roll with its points and any Yahtzee bonus.",
    )
    parser.add_argument("dice", nargs="+", help="five dice, like 13356 or 1 3 3 5 6")
    parser.add_argument("--box", metavar="BOX", help="show only this box (fh, 3k, aces, ...)")
    parser.add_argument("--card", metavar="FILE", help="scorecard JSON (- for stdin)")
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dice = Dice.parse(" ".join(args.dice))
    rules = RuleSet.named(args.rules)
    card = read_card(args.card, rules)
    options = card.placements(dice, rules)
    if args.box is not None:
        options = (card.placement(dice, rules.edition.parse_box(args.box), rules),)
    if args.json:
        print_json(
            {
                "dice": str(dice),
                "rules": rules.name,
                "placements": [
                    {
                        "category": p.category.key,
                        "name": p.category.display_name,
                        "points": p.points,
                        "yahtzee_bonus": p.yahtzee_bonus,
                        "joker": p.joker,
                    }
                    for p in options
                ],
            }
        )
        return 0
    where = "an empty card" if not card.filled_boxes else "this card"
    print(f"{dice.spaced()} on {where} ({rules.name} rules):")
    if not options:
        print("  no open box: the card is complete.")
    for p in options:
        extra = f"  +{p.yahtzee_bonus} Yahtzee bonus" if p.yahtzee_bonus else ""
        joker = "  (Joker)" if p.joker else ""
        print(f"  {p.category.display_name:<16}{p.points:>4}{extra}{joker}")
    return 0
