"""``yahtzee play``: a line-based game (prompts on stdout, answers on stdin).

Every decision goes to the engine; this module only reads commands and prints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core import (
    ROUNDS,
    BotSpec,
    Category,
    Game,
    InvalidInput,
    Keep,
    PlayoffRolled,
    RuleSet,
    Scorecard,
    YahtzeeError,
)
from ..core.errors import show
from ._io import add_database_option, add_rules_option, seed, short_message

if TYPE_CHECKING:
    from ..service import GameSession, Move
    from ..store import Seat

DEFAULT_NAME = "You"
"""The one player's name when none is given; messages to it say "you score", not "scores"."""

HINT_OPTIONS = 5
YES = frozenset({"y", "yes"})
ANSWERS = YES | {"n", "no"}

HELP = """Commands:
  keep DICE    keep these dice and roll the others (k 335); 'roll' re-rolls all five
  score BOX    fill a box with the dice showing (s fh, score aces, s 3k)
  boxes        what the dice score in each legal box
  hint         the advisor's best options now (the game's record notes it)
  card         your scorecard;  cards: everyone's totals
  help         this text (h);  quit: stop playing, the game is saved (q)
A box that would score 0 asks first: answer y to score it, anything else to keep it open."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal (the default)",
        description="Play Yahtzee: the terminal game on a terminal, line-based prompts with "
        "--plain or off a terminal; one player or up to eight.",
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="player names in seat order (default: You)"
    )
    add_rules_option(parser)
    parser.add_argument("--seed", type=seed, help="a whole number: the same seed, the same dice")
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="STRATEGY",
        help="add a computer player: 1-5 (difficulty, the same as level1-level5), random, "
        "greedy, heuristic, optimal or winning (plays to finish first) (repeatable)",
    )
    parser.add_argument("--resume", metavar="GAME_ID", help="go on with a recorded game")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line-based mode for screen readers and scripts (the default off a terminal)",
    )
    parser.add_argument("--light", action="store_true", help="light colours in the terminal game")
    parser.add_argument("--no-record", action="store_true", help="do not keep this game")
    add_database_option(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Every mistake in the arguments is found first, then the game starts in either mode."""
    rules = RuleSet.named(args.rules)
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


def _recorded_game(args: argparse.Namespace) -> str:
    """The full id of the game ``--resume`` names (checked before either mode starts)."""
    from ..store import Store  # noqa: PLC0415
    from ..store.engine import database_exists  # noqa: PLC0415

    if args.no_record:
        raise InvalidInput("--resume needs the records: leave out --no-record.")
    if args.names or args.bot:
        raise InvalidInput("A resumed game keeps its players: leave out the names and --bot.")
    if not database_exists(args.database_url):
        raise InvalidInput(f"No games are recorded yet: there is no game {show(args.resume)}.")
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
        print("(The terminal game needs: pip install 'yahtzee[tui]'. Plain mode follows.)")
        return False
    return True


EXIT_INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C


def run_plain(args: argparse.Namespace, rules: RuleSet, seats: list[Seat]) -> int:
    from ..service import GameSession  # noqa: PLC0415
    from ..store import Seat, Store, unfinished  # noqa: PLC0415

    seats = seats or [Seat(DEFAULT_NAME)]
    store = None if args.no_record else Store(args.database_url)
    status = 0
    try:
        if args.resume:
            assert store is not None
            session = GameSession.resume(store, args.resume, seed=args.seed)
        else:
            if store is not None and (waiting := unfinished(store)):
                print(f"You have {len(waiting)} unfinished game(s); the latest goes on with "
                      f"'yahtzee play --resume {waiting[0].id[:8]}'.")  # fmt: skip
            session = GameSession.new(seats, rules, store=store, seed=args.seed)
        try:
            PlainGame(session, _read_line, print).play()
        except KeyboardInterrupt:  # Ctrl-C: stopped as 'quit' stops it (every move is saved)
            print("\nGame stopped.")
            status = EXIT_INTERRUPTED
    finally:
        if store is not None:
            store.close()
    if session.game_id and not session.is_over:
        print(f"Saved: go on later with 'yahtzee play --resume {session.game_id[:8]}'.")
    return status


def _read_line(prompt: str) -> str | None:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


class PlainGame:
    """Plays a `GameSession` from lines of text: it reads commands and prints what
    happened; the session checks, records, moves the bots and reviews."""

    def __init__(
        self,
        session: GameSession,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
    ) -> None:
        self.session, self.read, self.write = session, read, write

    @property
    def game(self) -> Game:
        return self.session.game

    def play(self) -> None:
        self.write(f"Yahtzee ({self.game.rules.name} rules). Type 'help' for commands.")
        while not self.game.is_over:
            if not self._step():
                self.write("Game stopped.")
                return
        self._finish()

    def _step(self) -> bool:
        session, turn = self.session, self.game.turn
        if session.is_bot(session.current):
            for move in session.bot_moves():
                self._show(move)
            return True
        if turn is None or turn.dice is None:  # a turn's first roll, or a playoff roll
            self._show(session.roll())
            return True
        line = self.read(f"{_current_name(self.game)}> ")
        if line is None:
            return False
        return self._command(line.strip())

    def _command(self, line: str) -> bool:
        verb, _, rest = line.partition(" ")
        verb = verb.lower()
        try:
            if verb in {"quit", "exit", "q"}:
                return False
            if verb in {"help", "?", "h"}:
                self.write(HELP)
            elif verb in {"keep", "k"}:
                if not rest.strip():
                    raise InvalidInput(
                        "Say which dice to keep, like 'keep 335', or 'roll' for all five."
                    )
                self._show(self.session.roll(Keep.parse(rest)))
            elif verb in {"roll", "r"}:
                self._show(self.session.roll(Keep.parse(rest) if rest.strip() else Keep.NONE))
            elif verb in {"score", "s"}:
                self._score(rest)
            elif verb in {"boxes", "b"}:
                self._show_boxes()
            elif verb in {"hint", "advise"}:
                self._show_hint()
            elif verb in {"card", "c"}:
                self._show_card(self.game.cards[self._seat()])
            elif verb == "cards":
                for name, card in zip(self.game.players, self.game.cards, strict=True):
                    self.write(f"  {name}: {card.total}")
            elif not verb:
                self.write("Type a command: keep DICE, roll, score BOX, boxes, hint, card, help.")
            elif verb in ANSWERS:
                self.write("There is no question to answer now. Type 'help' for the commands.")
            else:
                self.write(
                    short_message(f"Unknown command {verb!r}. Type 'help' for the commands.")
                )
        except YahtzeeError as error:
            self.write(short_message(str(error)))
        return True

    def _score(self, box: str) -> None:
        """Fill a box; one that would score nothing asks first, as the terminal game does."""
        category = Category.parse(box)
        option = self.session.placements().get(category)
        if option is not None and option.total == 0:
            answer = self.read(f"{category.display_name} scores 0 here. Score it anyway? [y/N] ")
            if (answer or "").strip().lower() not in YES:
                self.write(f"Not scored: {category.display_name} is still open.")
                return
        self._show(self.session.score(category))

    def _seat(self) -> int:
        seat = self.game.current_player
        assert seat is not None
        return seat

    def _show(self, move: Move) -> None:
        """What a move did, as lines of text."""
        if isinstance(move.events[0], PlayoffRolled):
            dice = move.dice
            assert dice is not None
            self.write(f"Playoff: {_does(move.name, 'throws')} {dice.spaced()} (sum {dice.total}).")
            return
        if move.placement is not None:
            p = move.placement
            bonus = f" and a {p.yahtzee_bonus}-point Yahtzee bonus" if p.yahtzee_bonus else ""
            total = self.game.cards[move.seat].total
            self.write(
                f"{_does(move.name, 'scores')} {p.points} in {p.category.display_name}{bonus}. "
                f"Total {total}."
            )
            return
        turn = self.game.turn
        assert turn is not None and move.dice is not None
        if turn.rolls == 1:
            card = self.game.cards[move.seat]
            self.write("")
            self.write(f"Round {turn.round} of {ROUNDS}: {move.name} (total {card.total})")
        elif move.by_bot and isinstance(move.action, Keep):
            self.write(f"{_does(move.name, 'keeps')} {move.action.spaced()}.")
        plural = "roll" if turn.rolls_left == 1 else "rolls"
        self.write(f"Roll {turn.rolls}: {move.dice.spaced()}  ({turn.rolls_left} {plural} left)")
        self._show_boxes()

    def _show_hint(self) -> None:
        advice = self.session.hint()
        self.write("  Advisor (expected final total with optimal play):")
        for option in advice.options[:HINT_OPTIONS]:
            loss = advice.best.value - option.value
            tag = f"-{loss:.2f}" if round(loss, 2) else "best"
            self.write(f"  {option.value:8.2f} {tag:>7}  {option.text}")

    def _show_boxes(self) -> None:
        options = ", ".join(
            f"{p.category.display_name} {p.points}"
            + (f"+{p.yahtzee_bonus}" if p.yahtzee_bonus else "")
            for p in self.game.placements()
        )
        self.write(f"  Boxes: {options}")

    def _show_card(self, card: Scorecard) -> None:
        for category, points in card:
            shown = "-" if points is None else str(points)
            self.write(f"  {category.display_name:<16}{shown:>4}")
        self.write(
            f"  Upper {card.upper_subtotal} (bonus {card.upper_bonus}, "
            f"{card.points_to_upper_bonus} to go), Yahtzee bonus {card.yahtzee_bonus}, "
            f"total {card.total}"
        )

    def _finish(self) -> None:
        self.write("")
        self.write("Game over.")
        if len(self.game.players) == 1:  # a solo game has a score, not a winner
            self.write(f"  Final score: {self.game.cards[0].total}")
            return
        for standing in self.game.standings():
            mark = "  (winner)" if standing.winner else ""
            self.write(f"  {standing.place}. {standing.name}: {standing.total}{mark}")


def _does(name: str, verb: str) -> str:
    """``"Ann scores"``, but ``"You score"``: the default player is spoken to."""
    return f"{name} {verb.removesuffix('s') if name == DEFAULT_NAME else verb}"


def _current_name(game: Game) -> str:
    seat = game.current_player
    return game.players[seat] if seat is not None else ""
