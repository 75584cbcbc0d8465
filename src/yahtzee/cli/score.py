"""``yahtzee score DICE``: every legal box for a roll, with its points."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..core import Dice, Placement, RuleSet
from ..core.language import _, speaking
from ._io import add_rules_option, print_json, read_card


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help=_("show what a roll scores in each legal box"),
        description=_("Show every legal box for a roll with its points and any Yahtzee bonus."),
    )
    parser.add_argument(
        "dice", nargs="+", metavar=_("dice"), help=_("five dice, like 13356 or 1 3 3 5 6")
    )
    parser.add_argument("--box", metavar=_("BOX"), help=_("show only this box (fh, 3k, aces, ...)"))
    parser.add_argument("--card", metavar=_("FILE"), help=_("scorecard JSON (- for stdin)"))
    add_rules_option(parser)
    parser.add_argument("--json", action="store_true", help=_("print JSON"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    dice = Dice.parse(" ".join(args.dice))
    rules = RuleSet.named(args.rules)
    card = read_card(args.card, rules)
    options = card.placements(dice, rules)
    if args.box is not None:
        options = (card.placement(dice, rules.edition.parse_box(args.box), rules),)
    if args.json:
        with speaking("en"):  # (a box's name in the JSON stays English)
            _print_json(dice, rules, options)
        return 0
    if not card.filled_boxes:
        print(
            _("{dice} on an empty card ({rules} rules):").format(
                dice=dice.spaced(), rules=rules.name
            )
        )
    else:
        print(
            _("{dice} on this card ({rules} rules):").format(dice=dice.spaced(), rules=rules.name)
        )
    if not options:
        print("  " + _("no open box: the card is complete."))
    for p in options:
        extra = (
            "  " + _("+{points} Yahtzee bonus").format(points=p.yahtzee_bonus)
            if p.yahtzee_bonus
            else ""
        )
        joker = "  " + _("(Joker)") if p.joker else ""
        print(f"  {p.category.display_name:<16}{p.points:>4}{extra}{joker}")
    return 0


def _print_json(dice: Dice, rules: RuleSet, options: Sequence[Placement]) -> None:
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
