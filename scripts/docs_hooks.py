"""MkDocs hooks (mkdocs.yml): the CLI reference is generated from the parser itself, so it
cannot drift from what ``yahtzee --help`` says."""

from __future__ import annotations

import argparse
import os
from typing import Any

MARKER = "<!-- cli-reference -->"
WIDTH = "80"  # columns argparse formats the help for


def cli_reference() -> str:
    """Every command's ``--help``, in the order ``yahtzee --help`` lists them."""
    from yahtzee.cli import build_parser  # noqa: PLC0415 - only when the page is built

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parser = build_parser()
        parts = ["## yahtzee", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, sub in _commands(parser):
            parts += [f"## yahtzee {name}", "", "```text", sub.format_help().rstrip(), "```", ""]
            for inner, deeper in _commands(sub):
                parts += [f"### yahtzee {name} {inner}", "", "```text"]
                parts += [deeper.format_help().rstrip(), "```", ""]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(parts)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in seen:  # an alias names the same parser again
                    seen.add(id(sub))
                    found.append((name, sub))
    return found


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return markdown.replace(MARKER, cli_reference()) if MARKER in markdown else markdown
