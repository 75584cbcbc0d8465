"""Small helpers shared by the commands: reading inputs and writing outputs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..core import InvalidInput, RuleSet, Scorecard


def add_rules_option(parser: Any) -> None:
    parser.add_argument(
        "--rules",
        default="official",
        metavar="NAME",
        help=f"rule set: {', '.join(RuleSet.names())} (default: official)",
    )


def add_database_option(parser: Any) -> None:
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="where games are kept: sqlite:///FILE or postgresql://... (default: "
        "$YAHTZEE_DATABASE_URL, else the SQLite file in the user data folder)",
    )


def read_card(path: str | None) -> Scorecard:
    """A scorecard from a JSON file (``-`` for standard input); empty when no file is given."""
    if path is None:
        return Scorecard.empty()
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        file = Path(path)
        if not file.is_file():
            raise InvalidInput(f"No card file at {path}.")
        data = file.read_bytes()
    return Scorecard.from_json(data)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))
