"""The ``yahtzee`` command: a thin adapter over the core. No rule logic lives here."""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .. import __version__
from ..core import YahtzeeError
from ..core.errors import show
from . import advise, daily, play, records, rules, score, serve, simulate, solve, tables, verify
from ._io import MAX_MESSAGE, SHOWN, short_message

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_ERROR = 2

_COMMANDS = (play, daily, score, rules, solve, advise, simulate, records, serve, tables, verify)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line on stderr and exits 2: the
    mistake, then the usage of the command it was made in and where its help is."""

    def error(self, message: str) -> NoReturn:
        message = short_message(message)
        hint = f"try '{self.prog} --help'"
        usage = " ".join(self.format_usage().split()).removeprefix("usage: ")
        room = MAX_MESSAGE - len(message) - len(hint) - len(" (usage: ; )")
        if len(usage) > room:
            usage = usage[: max(room - 3, 0)].rstrip() + "..."
        self.exit(EXIT_ERROR, f"yahtzee: error: {message} (usage: {usage}; {hint})\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="yahtzee",
        description="Yahtzee with the official rules exactly. With no command, starts a game: "
        "'yahtzee' alone, or with play's options ('yahtzee --plain', 'yahtzee --rules "
        "no-joker'), is 'yahtzee play'.",
    )
    parser.add_argument("--version", action="version", version=f"yahtzee {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in _COMMANDS:
        module.register(commands)
    _describe(commands)
    return parser


def _describe(commands: argparse._SubParsersAction[Any]) -> None:
    """A command registered with a one-line ``help`` only gets it as its ``--help``
    description too (argparse shows none otherwise), its subcommands as well."""
    for choice in commands._choices_actions:
        parser = commands.choices[choice.dest]
        if not parser.description and choice.help:
            parser.description = choice.help[0].upper() + choice.help[1:] + "."
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _describe(action)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad input or illegal move)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # odd bytes become a visible mistake, not a crash
    _log_warnings()
    parser = build_parser()
    args, unknown = parser.parse_known_args(_as_command(args_list))
    if unknown:  # told by the command they were given to, with its usage and its help
        given = " ".join(unknown)
        given = given if len(given) <= SHOWN else given[: SHOWN - 3] + "..."
        _command_parser(parser, args).error(f"unrecognized arguments: {given}")
    try:
        return int(args.run(args))
    except YahtzeeError as error:
        _fail(str(error))
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as error:
        _fail(
            f"{error.strerror or error}: {show(error.filename)}" if error.filename else str(error)
        )
    except KeyboardInterrupt:  # a command with something to keep says what it kept itself
        print("\nStopped (Ctrl-C).", file=sys.stderr)
        return 130
    except Exception as error:  # last resort: no traceback reaches a player
        if os.environ.get("YAHTZEE_DEBUG"):
            raise
        _fail(f"internal error ({type(error).__name__}); set YAHTZEE_DEBUG=1 for details")
        return EXIT_INTERNAL
    return EXIT_ERROR


def _command_parser(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.ArgumentParser:
    """The parser of the (sub)command that ``args`` ran: ``yahtzee tables build``'s for
    ``yahtzee tables build ...``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if chosen in action.choices:
                return _command_parser(action.choices[chosen], args)
    return parser


def _as_command(argv: list[str]) -> list[str]:
    """``yahtzee`` alone, or followed by options and no command, is ``yahtzee play``."""
    if not argv or (argv[0].startswith("-") and argv[0] not in _OWN_OPTIONS):
        return ["play", *argv]
    return argv


_OWN_OPTIONS = frozenset({"-h", "--help", "--version"})


class _OneLine(logging.Formatter):
    """A log record as one line a user reads: ``yahtzee: MESSAGE``, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        return f"yahtzee: {record.getMessage()}"


def _log_warnings() -> None:
    """The library's warnings (a damaged solver cache, ...) reach stderr as one line each."""
    logger = logging.getLogger("yahtzee")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(_OneLine())
        logger.addHandler(handler)
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)


def _fail(message: str) -> None:
    print(f"yahtzee: error: {short_message(message)}", file=sys.stderr)
