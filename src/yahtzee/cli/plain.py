"""Plain mode's game: one game of a `GameSession` played from lines of text, with dice the
program rolls or dice the players roll at the table and type in (``dice 33356``).

The game is played through its table's room, hosted on an asyncio loop of its own
(`LocalRoom`, as the terminal game hosts it): each command read becomes a command given
to the room, whose refusal is printed; what the room tells (`Played`) is printed as it
comes, the bots' moves included, which the room plays. Lines are read in a thread of
their own, so that the loop is never held up by a player thinking.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ..core import (
    Box,
    Dice,
    DiceEntered,
    Event,
    Game,
    IllegalMove,
    InvalidInput,
    Placement,
    PlayoffRolled,
    Rolled,
    Scorecard,
    Scored,
    Written,
    YahtzeeError,
)
from ..core.language import N_, _, ngettext
from ..render.numbers import decimal
from ..service import commands
from ..service.local_room import LocalRoom
from ..service.room_events import Played, RoomEvent
from ._io import short_message

if TYPE_CHECKING:
    from ..service import GameSession

DEFAULT_NAME = "You"
"""The one player's name when none is given; messages to it say "you score", not "scores"."""

HINT_OPTIONS = 5
YES = frozenset({"y", "yes"})
ANSWERS = YES | {"n", "no"}

HELP = N_("""Commands:
  keep DICE    keep these dice and roll the others (k 335); 'roll' re-rolls all five
  score BOX    fill a box with the dice showing (s fh, score aces, s 3k)
  boxes        what the dice score in each legal box
  hint         the advisor's best options now (the game's record notes it)
  undo         take back your last box until the next player rolls, where the game allows
               it (a game of one player, or one started with --undo)
  card         your scorecard;  cards: everyone's totals
  help         this text (h);  quit: stop playing, the game is saved (q)
A box that would score 0 asks first: answer y to score it, anything else to keep it open.""")

HELP_ENTERED = N_("""Commands (real dice: roll them at the table, then type what they show):
  dice 33356   the five dice showing (also 'dice 3 3 3 5 6'); each open box's points follow
               (a forced Joker included). After dice said to be roll 1 or 2, new dice are
               the next roll; otherwise, typed again, they correct the dice
  dice 33356 roll 2
               the same, saying which roll of the turn it was (1-3; 'dice 33356 2' too):
               the advisor then says what to keep; not said, it counts as the last roll
  fix 33356    correct a mistyped die: these dice replace those entered, the same roll
  score BOX    fill a box with the dice entered (s fh, score aces, s 3k)
  write BOX POINTS
               write points straight in a box, as on a paper pad (write fours 12,
               w fh 25); they must be points the box can hold. A Yahtzee, its Joker
               placement and its bonus go in as dice: dice 55555, then score BOX
  undo         take back the last box filled, until the next player enters dice
  boxes        what the dice entered score in each legal box
  hint         the advisor's best options for the dice entered
  card         your scorecard;  cards: everyone's totals
  help         this text (h);  quit: stop playing, the game is saved (q)
A box that would score 0 asks first: answer y to score it, anything else to keep it open.""")

MAX_DIGITS = 6  # points longer than this are no box's (and not echoed back whole)
DICE_THEN_ROLL = 2  # 'dice 33356 2': the dice as one word, then the roll

ENTER_HOW = N_("type the five dice showing, like 'dice 33356', or 'write BOX POINTS'")
UNTIL_ANSWERED: Final = 366 * 24 * 3600.0
"""A bot waits this long (for good) while the placement before its turn may be taken back:
until the player answers (Enter goes on, 'undo' takes it back)."""


class PlainGame:
    """Plays one game of a `GameSession` from lines of text: it reads commands and prints
    what happened; the game's room checks, records and moves the bots."""

    def __init__(
        self,
        session: GameSession,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
    ) -> None:
        self.session, self.read, self.write = session, read, write
        self._announced: tuple[int, int] | None = None  # (round, seat) of the turn said
        self.room = LocalRoom(session, self, undo_wait=UNTIL_ANSWERED)
        self._options = _options(session.game)  # the boxes the dice showing may fill
        self._moved = asyncio.Event()  # the room told a move

    @property
    def game(self) -> Game:
        return self.session.game

    def play(self, *, resumed: bool = False) -> bool:
        """Play until the game is over (True) or the player stops (False)."""
        return asyncio.run(self._play(resumed))

    async def _play(self, resumed: bool) -> bool:
        self._moved = asyncio.Event()  # (this loop's)
        entered = self.game.entered
        dice = _("real dice: roll them and type them") if entered else _("the program rolls")
        rules = self.game.rules
        # Translators: {title} is the edition ("Yahtzee"), {dice} who rolls the dice
        start = _("{title} ({rules} rules, {dice}). Type 'help' for commands.")
        self.write(start.format(title=rules.edition.title, rules=rules.name, dice=dice))
        if resumed:
            self._show_where()
        self.room.start()
        try:
            while True:
                await self._settled()
                if self.game.is_over:
                    break
                if not await self._step():
                    self.write(_("Game stopped."))
                    return False
        finally:
            self.room.close()
        await asyncio.to_thread(self.session.finish)  # the review, kept with the record
        return True

    async def _settled(self) -> None:
        """Until the room has told every move made (a bot's turn shown whole), and no bot
        is to play but one that waits for the player's answer."""
        session, live = self.session, self.room.live
        while live.committed_seq != len(self.game.event_log) or (
            not session.is_over and session.is_bot(session.current) and not session.bot_waits
        ):
            await self._moved.wait()
            self._moved.clear()

    async def _step(self) -> bool:
        turn = self.game.turn
        if self.session.bot_waits:  # the placement before the bot's turn may be taken back
            return await self._before_bot()
        if not self.game.entered and (turn is None or turn.dice is None):
            await self._do(commands.Roll())  # a turn's first roll, or a playoff roll
            return True
        if self.game.entered:
            self._announce()
        line = await self._read(self._prompt())
        if line is None:
            return False
        return await self._command(line.strip())

    async def _read(self, prompt: str) -> str | None:
        """A line read in a thread of its own (a daemon's: Ctrl-C or the end of the game
        never waits for a player's answer)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str | None] = loop.create_future()

        def read() -> None:
            try:
                line = self.read(prompt)
            except BaseException as error:  # (reported on the loop, not lost in the thread)
                loop.call_soon_threadsafe(_settle, answer, None, error)
            else:
                loop.call_soon_threadsafe(_settle, answer, line, None)

        threading.Thread(target=read, name="plain-read", daemon=True).start()
        return await answer

    async def _do(self, command: commands.Command) -> None:
        """Give ``command`` to the room: its refusal is raised, for `_command` to print."""
        outcome = await self.room.handle(command)
        if isinstance(outcome, commands.Refused):
            raise IllegalMove(outcome.message, code=outcome.code)

    def heard(self, table_id: str, event: RoomEvent) -> None:
        """The room told a move: printed (a player's entered dice and taking back are
        printed by their commands)."""
        if isinstance(event, Played):
            for played in event.events:
                self._show(played, event.game)
            self._options = _options(event.game)
            self._moved.set()

    async def _before_bot(self) -> bool:
        """Before a bot plays, while the last placement may still be taken back: Enter
        lets the bot play, 'undo' takes the placement back; other commands work, and the
        bot waits."""
        last = self.game.event_log[-1]
        assert isinstance(last, Scored | Written)
        name = _current_name(self.game)
        box = last.category.display_name
        asked = _("{name} plays next. Enter goes on, 'undo' takes back {box}> ")
        line = await self._read(asked.format(name=name, box=box))
        if line is None:
            return False
        if not line.strip():
            self._moved.clear()
            await self._do(commands.GoOn())  # the room plays the bot now: its first move
            await self._moved.wait()
            return True
        return await self._command(line.strip())

    def _prompt(self) -> str:
        name = _current_name(self.game)
        if not self.game.entered:
            return f"{name}> "
        turn = self.game.turn
        you = name == DEFAULT_NAME
        if turn is None:
            prompt = _("Your playoff roll> ") if you else _("{name}'s playoff roll> ")
            return prompt.format(name=name)
        prompt = _("Your turn, round {round}> ") if you else _("{name}'s turn, round {round}> ")
        return prompt.format(name=name, round=turn.round)

    def _announce(self) -> None:
        """In a game of real dice, each turn starts with a line saying whose it is."""
        turn, seat = self.game.turn, self._seat()
        key = (0 if turn is None else turn.round, seat)
        if key == self._announced:
            return
        self._announced = key
        self.write("")
        name = self.game.players[seat]
        if turn is None:
            self.write(
                _("Playoff: {name}, roll all five dice once and type them: dice 33356.").format(
                    name=name
                )
            )
            return
        total = self.game.cards[seat].total
        self.write(
            _("Round {round} of {rounds}: {name} (total {total}).").format(
                round=turn.round, rounds=self.game.rules.rounds, name=name, total=total
            )
        )
        self.write("  " + _("Roll the dice, then {how}.").format(how=_(ENTER_HOW)))
        if turn.dice is not None:
            self.write("  " + _("Dice entered: {dice}").format(dice=turn.dice.spaced()))
            self._show_boxes()

    async def _command(self, line: str) -> bool:
        verb, _space, rest = line.partition(" ")
        verb = verb.lower()
        try:
            if verb in {"quit", "exit", "q"}:
                return False
            await self._run(verb, rest)
        except IllegalMove as error:
            self.write(short_message(self._plain_words(error)))
        except YahtzeeError as error:
            self.write(short_message(str(error)))
        return True

    async def _run(self, verb: str, rest: str) -> None:
        if verb in {"help", "?", "h"}:
            self.write(_(HELP_ENTERED) if self.game.entered else _(HELP))
        elif verb in {"keep", "k"}:
            if not rest.strip():
                raise InvalidInput(
                    _("Say which dice to keep, like 'keep 335', or 'roll' for all five.")
                )
            await self._do(commands.Roll(rest))
        elif verb in {"roll", "r"}:
            await self._do(commands.Roll(rest))
        elif verb in {"dice", "d"}:
            await self._enter(rest)
        elif verb in {"fix", "correct"}:
            await self._enter(rest, correct=True)
        elif verb in {"write", "w"}:
            await self._write(rest)
        elif verb in {"score", "s"}:
            await self._score(rest)
        elif verb == "undo":
            await self._undo()
        elif verb in {"boxes", "b"}:
            self._show_boxes()
        elif verb in {"hint", "advise"}:
            await self._show_hint()
        elif verb in {"card", "c"}:
            self._show_card(self.game.cards[self._speaking()])
        elif verb == "cards":
            for name, card in zip(self.game.players, self.game.cards, strict=True):
                self.write(f"  {name}: {card.total}")
        elif not verb:
            self.write(
                _(
                    "Type a command: dice 33356, score BOX, write BOX POINTS, undo, hint, "
                    "card, help."
                )
                if self.game.entered
                else _("Type a command: keep DICE, roll, score BOX, boxes, hint, card, help.")
            )
        elif verb in ANSWERS:
            self.write(_("There is no question to answer now. Type 'help' for the commands."))
        else:
            unknown = _("Unknown command {command}. Type 'help' for the commands.")
            self.write(short_message(unknown.format(command=repr(verb))))

    def _plain_words(self, error: IllegalMove) -> str:
        """The engine's refusal, with the plain-mode command that does what is allowed."""
        if error.code == "dice_entered":
            return _("In this game the players roll their own dice: {how}.").format(
                how=_(ENTER_HOW)
            )
        if error.code == "dice_rolled":
            return _(
                "The program rolls the dice in this game: 'roll' or 'keep DICE' rolls them "
                "(start a game of real dice with 'yahtzee play --real-dice')."
            )
        if error.code == "playoff_roll" and self.game.entered:
            return _("Every box is filled: the playoff is one roll of all five dice: dice 33356.")
        if error.code == "roll_first" and self.game.entered:
            return _("No dice entered yet: {how}.").format(how=_(ENTER_HOW))
        return str(error)

    # Real dice -----------------------------------------------------------------------

    async def _enter(self, rest: str, *, correct: bool = False) -> None:
        """``dice 33356``, ``dice 3 3 3 5 6``, ``dice 33356 2``, ``dice 33356 roll 2``;
        ``fix 33356`` (``correct``): the dice entered corrected, the same roll. Not said,
        dice after those said to be roll 1 or 2 are the next roll."""
        text, roll = _dice_and_roll(rest)
        playoff = self.game.entered and self.game.turn is None
        again = self.game.dice is not None and self.game.entered
        if correct:
            if not again or playoff:
                raise IllegalMove(
                    _("There are no dice to correct yet: {how}.").format(how=_(ENTER_HOW))
                )
            roll = self.session.said_roll
        elif roll is None:
            roll = self.session.next_roll
        before = self.session.said_roll
        await self._do(commands.Dice(text, roll))
        event = self.game.event_log[-1]
        assert isinstance(event, DiceEntered)
        if playoff:
            self.write(_throws(self.game.players[event.player], event.dice))
            return
        corrected = again and event.roll == before
        if event.roll is None:
            line = _("Corrected: {dice}") if corrected else _("Dice entered: {dice}")
        else:
            line = (
                _("Corrected: {dice} (roll {roll})")
                if corrected
                else _("Dice entered: {dice} (roll {roll})")
            )
        self.write("  " + line.format(dice=event.dice.spaced(), roll=event.roll))
        self._show_boxes()

    async def _write(self, rest: str) -> None:
        """``write BOX POINTS``: the box's name may have spaces (``write 4 of a kind 24``)."""
        box, _space, points = rest.strip().rpartition(" ")
        if not box or not points.strip():
            raise InvalidInput(_("Write a box and its points, like 'write fours 12'."))
        category = self.game.rules.edition.parse_box(box)
        if not points.isdigit() or len(points) > MAX_DIGITS:
            raise InvalidInput(
                _("Points are a whole number, like 'write {box} 12', not {points}.").format(
                    box=category.key, points=repr(points[:12])
                )
            )
        await self._do(commands.Write(category.key, int(points)))

    async def _undo(self) -> None:
        try:
            await self._do(commands.Undo())
        except IllegalMove as error:  # the room's reason, and how to have it
            if error.code != "undo_off":
                raise
            raise IllegalMove(
                _("{reason} Start the game with 'yahtzee play --undo' to allow it.").format(
                    reason=error
                ),
                code=error.code,
            ) from error
        placed = self.game.event_log[-2]  # (then the taking back)
        assert isinstance(placed, Scored | Written)
        name = self.game.players[placed.player]
        box = placed.category.display_name
        if name == DEFAULT_NAME:
            self.write(_("Taken back: your {box}; the box is open again.").format(box=box))
        else:
            taken = _("Taken back: {name}'s {box}; the box is open again.")
            self.write(taken.format(name=name, box=box))
        turn = self.game.turn
        self._announced = (0 if turn is None else turn.round, placed.player)
        if self.game.dice is not None:
            self.write("  " + _("Dice showing: {dice}").format(dice=self.game.dice.spaced()))
            self._show_boxes()

    # Shared --------------------------------------------------------------------------

    async def _score(self, box: str) -> None:
        """Fill a box; one that would score nothing asks first, as the terminal game does."""
        category = self.game.rules.edition.parse_box(box)
        option = self.session.placements().get(category)
        if option is not None and option.total == 0:
            box = category.display_name
            asked = _("{box} scores 0 here. Score it anyway? [y/N] ").format(box=box)
            answer = await self._read(asked)
            if (answer or "").strip().lower() not in YES:
                self.write(_("Not scored: {box} is still open.").format(box=box))
                return
        await self._do(commands.Score(category.key))

    def _speaking(self) -> int:
        """The seat whose player types now: while a bot waits for the player who just
        placed (`_before_bot`), that player; else the player to act."""
        last = self.game.event_log[-1]
        if self.session.bot_waits and isinstance(last, Scored | Written):
            return last.player
        return self._seat()

    def _seat(self) -> int:
        seat = self.game.current_player
        assert seat is not None
        return seat

    def _show(self, event: Event, game: Game) -> None:
        """What a move did, as lines of text (``game``: as it was after it)."""
        if isinstance(event, PlayoffRolled):
            self.write(_throws(game.players[event.player], event.dice))
        elif isinstance(event, Scored | Written):
            self._show_placement(event, game)
        elif isinstance(event, Rolled):
            self._show_roll(event, game)

    def _show_placement(self, placed: Scored | Written, game: Game) -> None:
        name = game.players[placed.player]
        chosen = self._options.get(placed.category) if isinstance(placed, Scored) else None
        bonus = placed.yahtzee_bonus if isinstance(placed, Scored) else 0
        # Translators: added after the box's name in "You score 25 in Full House (a Joker)."
        joker = _(" (a Joker)") if chosen is not None and chosen.joker else ""
        # Translators: added in "You score 25 in Full House and a 100-point Yahtzee bonus."
        said = _(" and a {bonus}-point Yahtzee bonus").format(bonus=bonus) if bonus else ""
        total = game.cards[placed.player].total
        # Translators: {joker} and {bonus} are empty or the two additions above
        line = (
            _("You score {points} in {box}{joker}{bonus}. Total {total}.")
            if name == DEFAULT_NAME
            else _("{name} scores {points} in {box}{joker}{bonus}. Total {total}.")
        )
        self.write(
            line.format(
                name=name, points=placed.points, box=placed.category.display_name,
                joker=joker, bonus=said, total=total,
            )
        )  # fmt: skip

    def _show_roll(self, rolled: Rolled, game: Game) -> None:
        turn, name = game.turn, game.players[rolled.player]
        assert turn is not None
        if turn.rolls == 1:
            card = game.cards[rolled.player]
            self.write("")
            self.write(
                _("Round {round} of {rounds}: {name} (total {total})").format(
                    round=turn.round, rounds=game.rules.rounds, name=name, total=card.total
                )
            )
        elif self.session.is_bot(rolled.player):
            keeps = _("You keep {dice}.") if name == DEFAULT_NAME else _("{name} keeps {dice}.")
            self.write(keeps.format(name=name, dice=rolled.keep.spaced()))
        line = ngettext(
            "Roll {roll}: {dice}  ({n} roll left)", "Roll {roll}: {dice}  ({n} rolls left)",
            turn.rolls_left,
        )  # fmt: skip
        self.write(line.format(roll=turn.rolls, dice=rolled.dice.spaced(), n=turn.rolls_left))
        self._show_boxes(game)

    def _show_where(self) -> None:
        """A resumed game: whose turn it is and the dice showing."""
        turn = self.game.turn
        seat = self.game.current_player
        if seat is None or turn is None or turn.dice is None or self.game.entered:
            return  # a game of real dice says it as its turn starts (`_announce`)
        name = self.game.players[seat]
        total = self.game.cards[seat].total
        self.write(
            _("Round {round} of {rounds}: {name} (total {total})").format(
                round=turn.round, rounds=self.game.rules.rounds, name=name, total=total
            )
        )
        self.write(
            _("Roll {roll}: {dice}  ({n} left)").format(
                roll=turn.rolls, dice=turn.dice.spaced(), n=turn.rolls_left
            )
        )
        self._show_boxes()

    async def _show_hint(self) -> None:
        outcome = await self.room.handle(commands.Hint())
        if isinstance(outcome, commands.Refused):
            raise IllegalMove(outcome.message, code=outcome.code)
        assert isinstance(outcome, commands.Advised)
        advice = outcome.advice
        self.write("  " + _("Advisor (expected final total with optimal play):"))
        for option in advice.options[:HINT_OPTIONS]:
            loss = advice.best.value - option.value
            # Translators: an option as good as the best one, in the column of points lost
            tag = "-" + decimal(loss, 2, grouping=False) if round(loss, 2) else _("best")
            value = decimal(option.value, 2, grouping=False)
            self.write(f"  {value:>8} {tag:>7}  {option.text}")

    def _show_boxes(self, game: Game | None = None) -> None:
        """What the dice showing score in each box they may fill (``game``: the game's
        now by default)."""
        game = self.game if game is None else game
        placements = game.placements()
        if not placements and game.entered:
            self.write("  " + _("No dice entered yet: {how}.").format(how=_(ENTER_HOW)))
            return
        options = ", ".join(
            f"{p.category.display_name} {p.points}"
            + (f"+{p.yahtzee_bonus}" if p.yahtzee_bonus else "")
            for p in placements
        )
        seat = game.current_player
        open_boxes = len(game.cards[seat].open_boxes) if seat is not None else 0
        joker = any(p.joker for p in placements)
        line = _("Boxes: Joker: {options}") if joker else _("Boxes: {options}")
        narrowed = 0 < len(placements) < open_boxes
        only = "  " + _("(the rules allow only these)") if narrowed else ""
        self.write("  " + line.format(options=options) + only)

    def _show_card(self, card: Scorecard) -> None:
        for category, points in card:
            shown = "-" if points is None else str(points)
            self.write(f"  {category.display_name:<16}{shown:>4}")
        edition = self.game.rules.edition
        line = (
            _("Upper {upper} (bonus {bonus}, {to_go} to go), {five} bonus {five_bonus}, "
              "total {total}")
            if edition.extra_rules
            else _("Upper {upper} (bonus {bonus}, {to_go} to go), total {total}")
        )  # fmt: skip
        self.write(
            "  " + line.format(
                upper=card.upper_subtotal, bonus=card.upper_bonus,
                to_go=card.points_to_upper_bonus, five=edition.five_of_a_kind.display_name,
                five_bonus=card.yahtzee_bonus, total=card.total,
            )
        )  # fmt: skip


def _dice_and_roll(rest: str) -> tuple[str, int | None]:
    """The dice and the roll number of ``dice ...``: ``33356``, ``3 3 3 5 6``, ``33356 2``,
    ``33356 roll 2`` or ``3 3 3 5 6 roll 2``."""
    words = rest.split()
    if not words:
        raise InvalidInput(_("Type the five dice showing, like 'dice 33356' (each 1 to 6)."))
    lowered = [w.lower() for w in words]
    roll: str | None = None
    if "roll" in lowered:
        at = lowered.index("roll")
        words, after = words[:at], words[at + 1 :]
        if len(after) != 1:
            raise InvalidInput(_("Say the roll as one number, like 'dice 33356 roll 2'."))
        roll = after[0]
    elif len(words) == DICE_THEN_ROLL and len(words[0]) > 1:
        words, roll = words[:1], words[1]
    if roll is None:
        return " ".join(words), None
    if roll not in {"1", "2", "3"}:
        raise InvalidInput(
            _("A roll of the turn is 1, 2 or 3 (or not said), not {roll}.").format(
                roll=short_message(repr(roll))
            )
        )
    return " ".join(words), int(roll)


def _options(game: Game) -> dict[Box, Placement]:
    """The boxes the dice showing may fill, as placed (a Joker's marked)."""
    return {p.category: p for p in game.placements()}


def _settle(
    answer: asyncio.Future[str | None], line: str | None, error: BaseException | None
) -> None:
    if answer.done():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(line)


def _throws(name: str, dice: Dice) -> str:
    """A playoff roll: ``"Ann throws ..."``, but ``"You throw ..."``: the default player
    is spoken to."""
    line = (
        _("Playoff: You throw {dice} (sum {sum}).")
        if name == DEFAULT_NAME
        else _("Playoff: {name} throws {dice} (sum {sum}).")
    )
    return line.format(name=name, dice=dice.spaced(), sum=dice.total)


def _current_name(game: Game) -> str:
    seat = game.current_player
    return game.players[seat] if seat is not None else ""
