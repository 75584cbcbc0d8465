"""Every command and every option of ``yahtzee`` says what it is in ``--help``, and the
lists of choices in the help are the ones the parser takes."""

from __future__ import annotations

import argparse

from yahtzee import RuleSet
from yahtzee.cli import build_parser
from yahtzee.solver import STRATEGIES


def _walk(parser: argparse.ArgumentParser, prog: str) -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(prog, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _walk(sub, f"{prog} {name}")
    return found


def test_every_command_has_a_description_and_every_option_its_help() -> None:
    missing = []
    for prog, parser in _walk(build_parser(), "yahtzee"):
        if not parser.description:
            missing.append(f"{prog}: no description")
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{prog} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def _help_of(command: str, option: str) -> str:
    parser = dict(_walk(build_parser(), "yahtzee"))[f"yahtzee {command}"]
    return next(a.help or "" for a in parser._actions if option in a.option_strings)


def test_the_bot_help_names_every_strategy_it_takes() -> None:
    text = _help_of("play", "--bot")
    for name in ("1-5", "winning", "random", "greedy", "heuristic", "optimal", "level1-level5"):
        assert name in text, text
    assert {n for n in STRATEGIES if not n.startswith("level")} <= set(
        text.replace(",", " ").split()
    )


def test_the_rules_help_names_the_rule_sets_and_playoff() -> None:
    for command in ("play", "score", "solve", "advise", "simulate", "history", "stats"):
        text = _help_of(command, "--rules")
        assert "+playoff" in text, (command, text)
        assert all(name in text for name in RuleSet.names()), (command, text)
