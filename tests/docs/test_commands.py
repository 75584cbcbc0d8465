"""Every command the README and the documentation show runs as written from a clone
(issue 50, item 1): an install line installs this project from its own folder (never a
``yahtzee`` from a package index, which is another project's name there) with extras that
exist, and every ``yahtzee COMMAND`` shown, with its options, is one the command line has.
The program's own messages that say what to install are held to the same rule."""

from __future__ import annotations

import argparse
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from yahtzee.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SOURCES = [p for p in sorted((ROOT / "src" / "yahtzee").rglob("*.py")) if "static" not in p.parts]

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"(?<!`)`([^`]+)`(?!`)")
PIP = re.compile(r"\bpip3? install\b([^&|;#`\n\"]*)")
YAHTZEE = re.compile(
    r"(?:(?:^|&&|\|\||[|;(]|\$ |  )\s*(?:\S*/)?|=\S*/)yahtzee((?:[ \t]+[^\s&|;#]+)*)"
)
"""``yahtzee ARGS`` where a command starts: a line's start (after a prompt), after ``&&``,
``|``, ``;``, after a gap of two spaces (a table of commands), or as a path after ``=``
(``ExecStart=/opt/yahtzee/venv/bin/yahtzee``)."""
PROJECT_EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
    "optional-dependencies"])  # fmt: skip
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]


def snippets(page: Path) -> Iterator[tuple[str, str]]:
    """(where, text) of each line of a fenced block (a line ending in ``\\`` joined to the
    next) and each inline code span of ``page``."""
    text = page.read_text(encoding="utf-8")
    name = str(page.relative_to(ROOT))
    for block in FENCE.finditer(text):
        start = text.count("\n", 0, block.start()) + 2
        for number, line in enumerate(block.group(1).replace("\\\n", " ").splitlines()):
            yield f"{name}:{start + number}", line
    prose = FENCE.sub("", text)
    for span in INLINE.finditer(prose):
        yield f"{name} `{span.group(1)[:60]}`", " ".join(span.group(1).split())


def install_problems(where: str, text: str) -> Iterator[str]:
    """What is wrong with each ``pip install`` of ``text``: a bare ``yahtzee`` (from an
    index), or an extra that pyproject.toml does not have."""
    for found in PIP.finditer(text):
        for quoted in found.group(1).split():
            word = quoted.strip("'\"")
            if word.startswith("-") or not word:
                continue
            local = re.fullmatch(r"\.(?:\[([^\]]*)\])?", word)
            if local:
                unknown = set(filter(None, (local.group(1) or "").split(","))) - PROJECT_EXTRAS
                if unknown:
                    yield f"{where}: {word} names extras the project lacks: {sorted(unknown)}"
            elif re.fullmatch(rf"{PROJECT}(\[.*\])?", word, re.I):
                yield f"{where}: {word!r} installs a {PROJECT} from a package index, not this one"


def commands() -> list[tuple[str, list[str]]]:
    found = []
    for page in PAGES:
        for where, text in snippets(page):
            for match in YAHTZEE.finditer(text):
                found.append((where, match.group(1).split()))
    return found


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_problems(where: str, words: list[str]) -> Iterator[str]:
    """What ``yahtzee WORDS`` shows that the command line does not have: a command, a
    subcommand or an option. Placeholders (``GAME_ID``, ``[NAME]``) and values pass."""
    parser = build_parser()
    chain = ["yahtzee"]
    commands = _subcommands(parser)
    if words and words[0].isupper():  # yahtzee COMMAND --help: a placeholder
        return
    if words and not words[0].startswith(("-", "[")):  # with none, it is 'yahtzee play'
        if words[0] not in commands:
            yield f"{where}: 'yahtzee {words[0]}' is not a command"
            return
        parser, chain = commands[words[0]], [*chain, words[0]]
        words = words[1:]
        nested = _subcommands(parser)
        named = re.fullmatch(r"\[?([a-z]+)", words[0]) if words else None  # [status]: optional
        if nested and named:
            if named.group(1) not in nested:
                yield f"{where}: 'yahtzee {chain[1]} {named.group(1)}' is not a command"
                return
            parser, chain, words = nested[named.group(1)], [*chain, named.group(1)], words[1:]
    else:
        parser = commands["play"]
    known = _options(parser)
    for word in words:
        option = re.match(r"\[?(--?[a-z][a-z-]*)", word)
        if option and option.group(1) not in known:
            yield f"{where}: '{' '.join(chain)}' has no option {option.group(1)}"


def test_the_pages_show_commands_and_install_lines() -> None:
    """The scan finds what it checks (a scan finding nothing would pass anything)."""
    shown = commands()
    assert len(shown) > 50
    assert {words[0] for _, words in shown if words} >= {"play", "serve", "advise", "tables"}
    installs = [w for p in PAGES for w, text in snippets(p) if PIP.search(text)]
    assert len(installs) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_install_line_installs_this_project(page: Path) -> None:
    problems = [p for where, text in snippets(page) for p in install_problems(where, text)]
    assert problems == []


def test_the_program_says_to_install_this_project() -> None:
    problems = [
        p
        for source in SOURCES
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1)
        for p in install_problems(f"{source.relative_to(ROOT)}:{number}", line)
    ]
    assert problems == []


def test_every_yahtzee_command_shown_exists() -> None:
    problems = [p for where, words in commands() for p in command_problems(where, words)]
    assert problems == []


@pytest.mark.parametrize(
    ("text", "wrong"),
    [("pip install 'yahtzee[web]'", "package index"), ("pip install yahtzee", "package index"),
     (".venv/bin/pip install -q '.[web,nope]'", "lacks"), ("pip install -e '.[test]'", None),
     ("pip install -q '.[rl]' sb3-contrib", None)],
)  # fmt: skip
def test_the_install_check_tells_this_project_from_an_index(text: str, wrong: str | None) -> None:
    problems = list(install_problems("here", text))
    assert (wrong in problems[0]) if wrong else problems == []


@pytest.mark.parametrize(
    ("text", "wrong"),
    [("$ yahtzee exprot --out x", "not a command"), ("yahtzee tables bild", "not a command"),
     ("yahtzee serve --prot 8000", "no option --prot"), ("x && yahtzee play --plain", None),
     ("yahtzee card --blank [--players 1-8] --html FILE", None),
     ("psql -U yahtzee -d yahtzee", None), ("Description=yahtzee server", None),
     ("ExecStart=/opt/yahtzee/venv/bin/yahtzee serve --prot 1", "no option --prot"),
     ("yahtzee tables [status [--json]]", None), ("yahtzee tables [--json]", "no option")],
)  # fmt: skip
def test_the_command_check_finds_what_does_not_exist(text: str, wrong: str | None) -> None:
    problems = [
        p for m in YAHTZEE.finditer(text) for p in command_problems("here", m.group(1).split())
    ]
    assert (wrong in problems[0]) if wrong else problems == []
