"""Small helpers shared by the commands: reading inputs and writing outputs."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core import InvalidInput, RuleSet, Scorecard
from ..core.errors import show

SHOWN = 40
"""The most characters of a player's input that a message quotes back."""
MAX_MESSAGE = 400
MAX_DIGITS = 18
"""The longest whole number an option takes (seeds included): far more than any needs."""


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high``, digits only."""

    def parse(text: str) -> int:
        digits = text.strip()
        negative = digits.startswith("-")
        digits = digits.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"takes a whole number from {low:,} to {high:,}, not {show(text)}"
            )
        value = -int(digits) if negative else int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"takes a whole number from {low:,} to {high:,}, not {value:,}"
            )
        return value

    return parse


def seed(text: str) -> int:
    """An argparse ``type`` for ``--seed``: a whole number, written in digits only."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number of 1 to {MAX_DIGITS} digits (like 42), not {show(text)}"
        )
    return int(digits)


def rules_help(what: str = "rule set", default: str | None = "official") -> str:
    """The help of a ``--rules`` option: every rule set's name, and ``+playoff``."""
    after = f"default: {default}" if default else "default: every rule set"
    return (
        f"{what}: {', '.join(RuleSet.names())}; add +playoff (official+playoff) to settle a "
        f"tie for first by a roll-off ({after})"
    )


def add_rules_option(
    parser: Any, *, default: str | None = "official", what: str = "rule set"
) -> None:
    parser.add_argument("--rules", default=default, metavar="NAME", help=rules_help(what, default))


def add_database_option(parser: Any) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="where games are kept: sqlite:///FILE or postgresql://... (default: "
        "$YAHTZEE_DATABASE_URL, else the SQLite file in the user data folder)",
    )


def read_card(path: str | None, rules: RuleSet | None = None) -> Scorecard:
    """A scorecard of the rules' edition from a JSON file (``-`` for standard input); empty
    when no file is given."""
    if path is None:
        return Scorecard.empty(rules)
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        file = Path(path)
        if not file.is_file():
            raise InvalidInput(f"No card file at {show(path)}.")
        data = file.read_bytes()
    return Scorecard.from_json(data, rules=rules)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


# a quote opens where a word could start, and closes where one could end (the text between
# the closing quote of 'bogus'. and the opening one of (add '+playoff' is not a quote)
_QUOTED = re.compile(
    rf"(?<![\w'\"])'[^'\n]{{{SHOWN},}}'(?![\w])|(?<![\w'\"])\"[^\"\n]{{{SHOWN},}}\"(?![\w])"
)


def short_message(message: str) -> str:
    """A message fit for one line: anything it quotes is cut to a few dozen characters (a
    100,000-character name or line is not echoed back), and the whole to a few lines' worth."""
    text = " ".join(_QUOTED.sub(lambda m: m[0][: SHOWN - 4] + "..." + m[0][0], message).split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."
