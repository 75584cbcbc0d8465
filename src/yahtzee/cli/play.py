"""``yahtzee play``: a line-based game (prompts on stdout, answers on stdin).

Every decision goes to the engine; this module only reads commands and prints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from ..core import Category, Game, InvalidInput, Keep, RandomDice, Scorecard, YahtzeeError
from ._io import add_database_option, add_rules_option

HELP = """Commands:
  keep DICE    keep these dice and roll the others (k 335); 'roll' re-rolls all five
  score BOX    fill a box with the dice showing (s fh, score aces, s 3k)
  boxes        what the dice score in each legal box
  card         your scorecard;  cards: everyone's totals
  help         this text;  quit: stop playing"""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal (the default)",
        description="Play Yahtzee with line-based prompts: one player or up to eight.",
    )
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="player names in seat order (default: You)"
    )
    add_rules_option(parser)
    parser.add_argument("--seed", help="seed the dice for a reproducible game")
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="STRATEGY",
        help="add a computer player: 1-5 (difficulty), greedy, heuristic or optimal; repeatable",
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
    if _wants_terminal_game(args):
        from ..tui import run as run_tui  # noqa: PLC0415

        run_tui(args.database_url, int(args.seed) if args.seed else None, args.light)
        return 0
    return run_plain(args)


def _wants_terminal_game(args: argparse.Namespace) -> bool:
    """The Textual game on a real terminal, unless --plain (or names, bots, --resume)."""
    if args.plain or args.no_record or args.names or args.bot or args.resume:
        return False
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        import textual  # noqa: F401, PLC0415
    except ImportError:
        print("(The terminal game needs: pip install 'yahtzee[tui]'. Plain mode follows.)")
        return False
    return True


def run_plain(args: argparse.Namespace) -> int:
    from ..store import Seat, Store, unfinished  # noqa: PLC0415

    store = None if args.no_record else Store(args.database_url)
    game_id: str | None = None
    if args.resume:
        if store is None:
            raise InvalidInput("--resume needs the records: leave out --no-record.")
        game_id = store.resolve(args.resume)
        game = store.load(game_id, RandomDice(args.seed))
        seats = store.seats_of(game_id)
    else:
        if store is not None and (waiting := unfinished(store)):
            print(f"You have {len(waiting)} unfinished game(s); the latest goes on with "
                  f"'yahtzee play --resume {waiting[0].id[:8]}'.")  # fmt: skip
        bots = [strategy_name(b) for b in args.bot]
        humans = args.names or (["You"] if not bots else [])
        seats = [Seat(n) for n in humans] + [
            Seat(f"Bot {i + 1} ({b})", b) for i, b in enumerate(bots)
        ]
        if not seats:
            raise InvalidInput("Name at least one player or add a --bot.")
        game = Game([s.name for s in seats], args.rules, RandomDice(args.seed))
        game_id = store.start(game, seats, seed=args.seed) if store else None
    players = {i: s.bot for i, s in enumerate(seats) if s.bot}

    def save() -> None:
        if store is not None and game_id is not None:
            store.save(game_id, game)

    try:
        PlainGame(game, _read_line, print, save, _bots(players, game)).play()
    finally:
        if store is not None:
            store.close()
    if game_id and not game.is_over:
        print(f"Saved: go on later with 'yahtzee play --resume {game_id[:8]}'.")
    return 0


def strategy_name(name: str) -> str:
    from ..solver.strategies import strategy_name as known  # noqa: PLC0415 - loads numba

    return known(name)


def _bots(seats: dict[int, str], game: Game) -> dict[int, Any]:
    if not seats:
        return {}
    from ..solver import strategy  # noqa: PLC0415 - loads numba only when bots play

    return {seat: strategy(name, game.rules) for seat, name in seats.items()}


def _read_line(prompt: str) -> str | None:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\n")


class PlainGame:
    """Drives a :class:`Game` from lines of text."""

    def __init__(
        self,
        game: Game,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
        save: Callable[[], None] = lambda: None,
        bots: dict[int, Any] | None = None,
    ) -> None:
        self.game, self.read, self.write, self.save = game, read, write, save
        self.bots = bots or {}

    def play(self) -> None:
        self.write(f"Yahtzee ({self.game.rules.name} rules). Type 'help' for commands.")
        while not self.game.is_over:
            if not self._step():
                self.write("Game stopped.")
                return
        self._finish()

    def _step(self) -> bool:
        game = self.game
        seat = game.current_player
        assert seat is not None
        turn = game.turn
        if turn is None:  # playoff: each tied player throws all five dice
            dice = game.roll()
            self.save()
            self.write(f"Playoff: {game.players[seat]} throws {dice.spaced()} (sum {dice.total}).")
            return True
        if turn.dice is None:
            card = game.cards[seat]
            self.write("")
            self.write(f"Round {turn.round} of 13: {game.players[seat]} (total {card.total})")
            self._show_roll(game.roll())
            self.save()
        if seat in self.bots:
            self._bot_turn(seat)
            return True
        line = self.read(f"{game.players[seat]}> ")
        if line is None:
            return False
        return self._command(line.strip())

    def _bot_turn(self, seat: int) -> None:
        """The bot finishes its turn; every action is shown and saved."""
        bot = self.bots[seat]
        while (situation := self.game.situation()) is not None:
            action = bot.choose(situation)
            if isinstance(action, Keep):
                self.write(f"{self.game.players[seat]} keeps {action.spaced()}.")
                self._roll(action)
            else:
                self._score(action.category.key)
                return

    def _command(self, line: str) -> bool:
        verb, _, rest = line.partition(" ")
        verb = verb.lower()
        try:
            if verb in {"quit", "exit", "q"}:
                return False
            if verb in {"help", "?", "h"}:
                self.write(HELP)
            elif verb in {"keep", "k"}:
                self._roll(Keep.parse(rest) if rest.strip() else None)
            elif verb in {"roll", "r"}:
                self._roll(Keep.parse(rest) if rest.strip() else Keep.NONE)
            elif verb in {"score", "s"}:
                self._score(rest)
            elif verb in {"boxes", "b"}:
                self._show_boxes()
            elif verb in {"card", "c"}:
                self._show_card(self.game.cards[self._seat()])
            elif verb == "cards":
                for name, card in zip(self.game.players, self.game.cards, strict=True):
                    self.write(f"  {name}: {card.total}")
            elif not verb:
                self.write("Type a command: keep DICE, roll, score BOX, boxes, card, help.")
            else:
                self.write(f"Unknown command {verb!r}. Type 'help' for the commands.")
        except YahtzeeError as error:
            self.write(str(error))
        return True

    def _seat(self) -> int:
        seat = self.game.current_player
        assert seat is not None
        return seat

    def _roll(self, keep: Keep | None) -> None:
        if keep is None:
            raise InvalidInput("Say which dice to keep, like 'keep 335', or 'roll' for all five.")
        self._show_roll(self.game.roll(keep))
        self.save()

    def _score(self, box: str) -> None:
        seat = self._seat()
        placement = self.game.score(Category.parse(box))
        self.save()
        bonus = (
            f" and a {placement.yahtzee_bonus}-point Yahtzee bonus"
            if placement.yahtzee_bonus
            else ""
        )
        card = self.game.cards[seat]
        self.write(
            f"{self.game.players[seat]} scores {placement.points} in "
            f"{placement.category.display_name}{bonus}. Total {card.total}."
        )

    def _show_roll(self, dice: Any) -> None:
        turn = self.game.turn
        assert turn is not None
        left = turn.rolls_left
        plural = "roll" if left == 1 else "rolls"
        self.write(f"Roll {turn.rolls}: {dice.spaced()}  ({left} {plural} left)")
        self._show_boxes()

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
        for standing in self.game.standings():
            mark = "  (winner)" if standing.winner else ""
            self.write(f"  {standing.place}. {standing.name}: {standing.total}{mark}")
