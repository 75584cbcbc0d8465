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
from ..core.language import _
from ..render.numbers import decimal

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
                _("takes a whole number from {low} to {high}, not {value}").format(
                    low=decimal(low, 0), high=decimal(high, 0), value=show(text)
                )
            )
        value = -int(digits) if negative else int(digits)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("takes a whole number from {low} to {high}, not {value}").format(
                    low=decimal(low, 0), high=decimal(high, 0), value=decimal(value, 0)
                )
            )
        return value

    return parse


def seed(text: str) -> int:
    """An argparse ``type`` for ``--seed``: a whole number, written in digits only."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            _("a seed is a whole number of 1 to {most} digits (like 42), not {value}").format(
                most=MAX_DIGITS, value=show(text)
            )
        )
    return int(digits)


def rules_help(what: str | None = None, default: str | None = "official") -> str:
    """The help of a ``--rules`` option: every rule set's name, and ``+playoff``
    (``what``: what the option chooses, translated; "rule set" by default)."""
    after = _("default: {name}").format(name=default) if default else _("default: every rule set")
    # Translators: {what} says what --rules chooses ("rule set"); {names}: rule set names
    return _(
        "{what}: {names}; add +playoff (official+playoff) to settle a tie for first by a "
        "roll-off ({default})"
    ).format(what=what or _("rule set"), names=", ".join(RuleSet.names()), default=after)


def add_rules_option(
    parser: Any, *, default: str | None = "official", what: str | None = None
) -> None:
    """``--rules NAME`` (``what``: what it chooses, translated; "rule set" by default)."""
    parser.add_argument(
        "--rules", default=default, metavar=_("NAME"), help=rules_help(what, default)
    )


def add_database_option(parser: Any) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help=_(
            "where games are kept: sqlite:///FILE or postgresql://... (default: "
            "$YAHTZEE_DATABASE_URL, else the SQLite file in the user data folder)"
        ),
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
            raise InvalidInput(_("No card file at {path}.").format(path=show(path)))
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
