"""The ``yahtzee`` command: a thin adapter over the core. No rule logic lives here."""

from __future__ import annotations

import argparse
import gettext
import io
import logging
import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from .. import __version__
from ..core import YahtzeeError, language
from ..core.errors import show
from ..core.language import _
from . import advise, daily, play, records, rules, score, serve, simulate, solve, tables, verify
from ._io import MAX_MESSAGE, SHOWN, short_message
from .argparse_words import speak_argparse

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_ERROR = 2

_COMMANDS = (play, daily, score, rules, solve, advise, simulate, records, serve, tables, verify)


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage mistake in one line on stderr and exits 2: the
    mistake, then the usage of the command it was made in and where its help is."""

    def error(self, message: str) -> NoReturn:
        message = short_message(message)
        # Translators: how to see a command's help; {command} is "yahtzee advise" or so
        hint = _("try '{command} --help'").format(command=self.prog)
        prefix = " ".join(gettext.gettext("usage: ").split()) + " "  # (argparse's word)
        usage = " ".join(self.format_usage().split()).removeprefix(prefix)
        # Translators: a mistake on the command line; {usage} is the command's usage
        line = _("yahtzee: error: {message} (usage: {usage}; {hint})")
        room = (
            MAX_MESSAGE
            + len("yahtzee: error: ")
            - len(line.format(message=message, usage="", hint=hint))
        )  # (the usage is cut to fit as many characters as ever, the line's start aside)
        if len(usage) > room:
            usage = usage[: max(room - 3, 0)].rstrip() + "..."
        self.exit(EXIT_ERROR, line.format(message=message, usage=usage, hint=hint) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, in the language in force (built after it is chosen)."""
    parser = _Parser(
        prog="yahtzee",
        description=_(
            "Yahtzee with the official rules exactly. With no command, starts a game: "
            "'yahtzee' alone, or with play's options ('yahtzee --plain', 'yahtzee --rules "
            "no-joker'), is 'yahtzee play'."
        ),
    )
    parser.add_argument("--version", action="version", version=f"yahtzee {__version__}")
    commands = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=_Parser)
    for module in _COMMANDS:
        module.register(commands)
    _describe(commands)
    _add_language_option(parser)
    return parser


def _add_language_option(parser: argparse.ArgumentParser) -> None:
    """``--lang CODE`` on the command and on every subcommand (read before parsing, by
    `_language`; here for the help, and so that any place is a place for it)."""
    languages = ", ".join(f"{lang.code} ({lang.name})" for lang in language.LANGUAGES)
    parser.add_argument(
        "--lang",
        metavar=_("CODE"),
        help=_(
            "the language to speak: {languages} (default: from LANGUAGE or LANG, else English)"
        ).format(languages=languages),
    )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # (an alias: the same parser)
                _add_language_option(sub)


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
    code, args_list, unknown_code = _language(args_list)
    language.set_language(code)
    if unknown_code is not None:
        complaint = _("{message} English is used.").format(
            message=language.unknown_language(unknown_code)
        )
        print(f"yahtzee: {short_message(complaint)}", file=sys.stderr)
    with speak_argparse(code), warnings.catch_warnings():
        warnings.showwarning = _show_warning  # (a catalog missing on disk: one line)
        return _run(args_list)


def _show_warning(message: Warning | str, *_args: object, **_kwargs: object) -> None:
    """A warning (a catalog missing on disk) as one line on stderr, not Python's two."""
    print(f"yahtzee: {message}", file=sys.stderr)


def _language(argv: list[str]) -> tuple[str, list[str], str | None]:
    """The language to speak, the arguments without ``--lang`` and the code ``--lang``
    named if it is no language of ours: ``--lang CODE`` or ``--lang=CODE`` anywhere before
    ``--`` (the last wins), else the environment's language (``LANGUAGE``, ``LANG``...).
    Read before the parser is built, so that its help is in that language too."""
    rest: list[str] = []
    asked: str | None = None
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            rest.extend(argv[index:])
            break
        if word.startswith("--lang="):
            asked = word.removeprefix("--lang=")
        elif word == "--lang" and index + 1 < len(argv):
            index += 1
            asked = argv[index]
        else:
            rest.append(word)  # (``--lang`` last, without its code: argparse says so)
        index += 1
    if asked is None:
        return language.from_environment(), rest, None
    code = language.match(asked)
    return (language.ENGLISH, rest, asked) if code is None else (code, rest, None)


def _run(args_list: list[str]) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(_as_command(args_list))
    if unknown:  # told by the command they were given to, with its usage and its help
        given = " ".join(unknown)
        given = given if len(given) <= SHOWN else given[: SHOWN - 3] + "..."
        _command_parser(parser, args).error(
            _("unrecognized arguments: {arguments}").format(arguments=given)
        )
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
        print("\n" + _("Stopped (Ctrl-C)."), file=sys.stderr)
        return 130
    except Exception as error:  # last resort: no traceback reaches a player
        if os.environ.get("YAHTZEE_DEBUG"):
            raise
        _fail(
            _("internal error ({kind}); set YAHTZEE_DEBUG=1 for details").format(
                kind=type(error).__name__
            )
        )
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
    print(_("yahtzee: error: {message}").format(message=short_message(message)), file=sys.stderr)
