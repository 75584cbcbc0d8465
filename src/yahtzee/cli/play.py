"""``yahtzee play``: its arguments, checked before either mode starts, then the terminal
game or plain mode, a line-based game (prompts on stdout, answers on stdin: `plain` plays
a game, `plain_sitting` the games of a sitting one after the other).

Every decision goes to the engine; these modules only read commands and print.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..core import BotSpec, Game, InvalidInput, RuleSet
from ..core.errors import show
from ..core.language import N_, _
from ._io import add_database_option, add_rules_option, seed
from .plain import DEFAULT_NAME

if TYPE_CHECKING:
    from ..store import Seat


NO_BOTS_REAL_DICE = N_(
    "--real-dice is for people at a table: a computer player cannot roll real dice "
    "(leave out --bot, or let the program roll)."
)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help=_("play a game in the terminal (the default)"),
        description=_(
            "Play Yahtzee: the terminal game on a terminal, line-based prompts with "
            "--plain or off a terminal; one player or up to eight."
        ),
    )
    parser.add_argument(
        "names", nargs="*", metavar=_("NAME"), help=_("player names in seat order (default: You)")
    )
    add_rules_option(parser)
    parser.add_argument(
        "--seed", type=seed, metavar=_("SEED"),
        help=_("a whole number: the same seed, the same dice"),
    )  # fmt: skip
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar=_("STRATEGY"),
        help=_(
            "add a computer player: 1-5 (difficulty, the same as level1-level5), random, "
            "greedy, heuristic, optimal or winning (plays to finish first) (repeatable)"
        ),
    )
    parser.add_argument(
        "--real-dice",
        action="store_true",
        help=_(
            "the players roll real dice at the table and type what they show (or write "
            "each box's points, as on a paper pad); people only, no --bot"
        ),
    )
    parser.add_argument(
        "--undo",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=_(
            "let players take back their last placement until the next player rolls (a "
            "bot waits for the player to go on); by default on alone and with real dice, off "
            "against others"
        ),
    )
    parser.add_argument("--resume", metavar=_("GAME_ID"), help=_("go on with a recorded game"))
    parser.add_argument(
        "--plain",
        action="store_true",
        help=_("line-based mode for screen readers and scripts (the default off a terminal)"),
    )
    parser.add_argument(
        "--light", action="store_true", help=_("light colours in the terminal game")
    )
    parser.add_argument("--no-record", action="store_true", help=_("do not keep this game"))
    add_database_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Every mistake in the arguments is found first, then the game starts in either mode."""
    rules = RuleSet.named(args.rules)
    if args.real_dice:
        _check_real_dice(args)
    seats = _seats(args)
    if seats:
        Game([s.name for s in seats], rules)  # names, their number and duplicates checked
    if args.resume:
        args.resume = _recorded_game(args)
    if _wants_terminal_game(args):
        from ..tui import run as run_tui  # noqa: PLC0415

        run_tui(
            args.database_url,
            args.seed,
            args.light,
            rules=rules,
            seats=seats,
            record=not args.no_record,
            resume=args.resume,
            entered=args.real_dice,
            undo=args.undo,
        )
        return 0
    return run_plain(args, rules, seats)


def _seats(args: argparse.Namespace) -> list[Seat]:
    """The seats the command line names: the players, then the bots (empty: none named)."""
    bots = [BotSpec.parse(b) for b in args.bot]
    from ..store import Seat  # noqa: PLC0415 - SQLAlchemy loads only for games

    humans = list(args.names)
    return [Seat(n) for n in humans] + [
        Seat(bot.seat_name(len(humans) + i), bot) for i, bot in enumerate(bots)
    ]


def _check_real_dice(args: argparse.Namespace) -> None:
    """--real-dice with the options it cannot go with: one line each, before either mode."""
    if args.bot:
        raise InvalidInput(_(NO_BOTS_REAL_DICE))
    if args.resume:
        raise InvalidInput(_("A resumed game keeps its dice: leave out --real-dice."))
    if args.seed is not None:
        raise InvalidInput(_("A seed makes the program's dice; with --real-dice leave out --seed."))


def _recorded_game(args: argparse.Namespace) -> str:
    """The full id of the game ``--resume`` names (checked before either mode starts)."""
    from ..store import Store  # noqa: PLC0415
    from ..store.engine import database_exists  # noqa: PLC0415

    if args.no_record:
        raise InvalidInput(_("--resume needs the records: leave out --no-record."))
    if args.names or args.bot:
        raise InvalidInput(_("A resumed game keeps its players: leave out the names and --bot."))
    if not database_exists(args.database_url):
        raise InvalidInput(
            _("No games are recorded yet: there is no game {game}.").format(game=show(args.resume))
        )
    with Store(args.database_url) as store:
        return store.resolve(args.resume)


def _wants_terminal_game(args: argparse.Namespace) -> bool:
    """The Textual game on a real terminal; plain mode with --plain or off a terminal.
    Names, bots, --rules, --resume and --no-record go to whichever mode plays."""
    if args.plain or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import textual  # noqa: F401, PLC0415
    except ImportError:
        print(
            _(
                "(The terminal game needs: pip install '.[tui]' in the project's folder. Plain "
                "mode follows.)"
            )
        )
        return False
    return True


EXIT_INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C


def run_plain(args: argparse.Namespace, rules: RuleSet, seats: list[Seat]) -> int:
    """Plain mode: a game, then the next games of its sitting while the players go on."""
    from ..service import GameSession  # noqa: PLC0415
    from ..store import Seat, Store, unfinished  # noqa: PLC0415
    from .plain_sitting import PlainSitting  # noqa: PLC0415

    seats = seats or [Seat(DEFAULT_NAME)]
    store = None if args.no_record else Store(args.database_url)
    status = 0
    try:
        if args.resume:
            assert store is not None
            session = GameSession.resume(store, args.resume, seed=args.seed, undo=args.undo)
        else:
            if store is not None and (waiting := unfinished(store)):
                print(_("You have {count} unfinished game(s); the latest goes on with "
                        "'yahtzee play --resume {game}'.").format(
                    count=len(waiting), game=waiting[0].id[:8]))  # fmt: skip
            session = GameSession.new(
                seats, rules, store=store, seed=args.seed, entered=args.real_dice, undo=args.undo
            )
        sitting = PlainSitting(session, _read_line, print, seed=args.seed)
        try:
            sitting.play(resumed=bool(args.resume))
        except KeyboardInterrupt:  # Ctrl-C: stopped as 'quit' stops it (every move is saved)
            print("\n" + _("Game stopped."))
            status = EXIT_INTERRUPTED
        session = sitting.session
    finally:
        if store is not None:
            store.close()
    if session.game_id and not session.is_over:
        print(
            _("Saved: go on later with 'yahtzee play --resume {game}'.").format(
                game=session.game_id[:8]
            )
        )
    return status


def _read_line(prompt: str) -> str | None:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")
