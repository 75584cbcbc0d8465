"""A game of real dice in the terminal: the players roll at the table and type the dice
showing (the five-slot entry), or write a box's points (quick score entry), or enter a
Yahtzee of a face. The engine checks every entry and says what is allowed
through the game's room (`commands.Dice`, `commands.Write`); nothing here knows the
rules.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from ..core import DICE_COUNT, FACES, ROLLS_PER_TURN, Box
from ..core.language import N_, NP_, _, ngettext, pgettext
from ..service import GameSession, commands
from .sitting import SittingBook, print_pad
from .words import SpokenModal, SpokenScreen

Written = Callable[[Box, int], Awaitable[str | None]]
"""Points written in a box, given to the game's room: its refusal's sentence, or None."""

MAX_TYPED = 10
"""The most characters the entry holds: enough to show six or seven dice typed."""
FACE_WORDS = (
    # Translators: five dice alike showing this face ("A Yahtzee of ones")
    NP_("dice faces", "ones"),
    NP_("dice faces", "twos"),
    NP_("dice faces", "threes"),
    NP_("dice faces", "fours"),
    NP_("dice faces", "fives"),
    NP_("dice faces", "sixes"),
)
"""Five dice of a face, in words (marked; translated where shown)."""
ENTRY_ACTIONS = frozenset(
    {"type_die", "erase_die", "submit_dice", "clear_dice", "roll_number", "write",
     "yahtzee_of", "no_roll"}
)  # fmt: skip
"""The play screen's actions of a game of entered dice (off in a game of rolled dice)."""
ENTRY_BINDINGS = [
    *(Binding(str(d), f"type_die({d})", N_("Type a die"), show=False) for d in range(10)),
    Binding("backspace", "erase_die", N_("Erase a die"), show=False),
    Binding("enter", "submit_dice", N_("Enter the dice"), show=False, priority=True),
    Binding("escape", "clear_dice", N_("Clear the dice typed"), show=False),
    Binding("r", "roll_number", N_("Which roll"), show=False),
    Binding("space", "no_roll", N_("Roll"), show=False),
    # Translators: a key in the footer: write a box's points (short)
    Binding("w", "write", N_("Write")),
    Binding("x", "yahtzee_of", N_("Yahtzee of"), show=False),
]
"""Listed before the play screen's own: a key of both (1-5, r, space, Enter) does the
entered game's action there, and the rolled game's elsewhere. The footer shows only
``w`` (it has 80 columns); the side panel says the others."""
NO_ROLL = N_(
    "The dice come from the table in this game: roll them, type the five showing "
    "(like 33356) and press Enter."
)


def roll_words(roll: int | None) -> str:
    """Which roll of the turn dice entered are: ``roll 2 of 3``, or ``roll not said``."""
    if roll is None:
        return _("roll not said")
    return _("roll {roll} of {rolls}").format(roll=roll, rolls=ROLLS_PER_TURN)


class DiceEntry(Static):
    """The five slots of the dice being typed (one more for each die too many, marked),
    and which roll of the turn they are, if said: typed over dice entered this turn, a
    new roll or a correction of those. Holds only what is typed: the dice entered are
    the game's."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="hidden")
        self.typed = ""
        self.roll: int | None = None
        self.showing = ""  # the dice entered, shown dim until others are typed
        self.showing_roll: int | None = None  # the roll said with them

    def type(self, character: str) -> bool:
        """Add a typed character (False when the entry is full)."""
        if len(self.typed) >= MAX_TYPED:
            return False
        self.typed += character
        self.show()
        return True

    def erase(self) -> None:
        self.typed = self.typed[:-1]
        self.show()

    def clear(self) -> None:
        self.typed = ""
        self.show()

    def show(self, showing: str | None = None, showing_roll: int | None = None) -> None:
        """The slots: what is typed, else (dim) ``showing``, the dice entered (said to be
        roll ``showing_roll``)."""
        if showing is not None:
            self.showing, self.showing_roll = showing, showing_roll
        typed = self.typed or self.showing
        style = "bold" if self.typed else "dim"
        # Translators: before the five slots of the dice being typed ("Dice [3][3][_]...")
        slots = Text(_("Dice") + " ")
        for index in range(max(DICE_COUNT, len(typed))):
            face = typed[index] if index < len(typed) else "_"
            wrong = index >= DICE_COUNT or (face != "_" and int(face) not in FACES)
            slots.append(f"[{face}]", style="bold red" if wrong else style)
        roll = roll_words(self.roll)
        if self.typed and self.showing:  # typed over the dice entered this turn
            if self.roll == self.showing_roll:
                # Translators: {roll} is "roll 2 of 3" or "roll not said"; r changes it
                said = _("{roll}: corrects them (r)").format(roll=roll)
            else:
                said = _("{roll}: a new roll (r)").format(roll=roll)
        else:
            said = _("{roll} (r)").format(roll=roll)
        slots.append(f"\n{said}", style="dim")
        self.update(slots)


class WriteScreen(SpokenModal[bool]):
    """Quick score entry: a box of the player to act and the points written in it. The
    room checks them against what the box can hold; refused, its sentence shows here
    and nothing changes. Answers whether they were written."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, session: GameSession, category: Box | None, write: Written) -> None:
        super().__init__(id="write")
        self.session = session
        self.write = write
        seat = session.game.current_player
        card = session.game.cards[seat if seat is not None else 0]
        self.boxes = card.open_boxes
        self.start = category if category in self.boxes else self.boxes[0]

    def compose(self) -> ComposeResult:
        name = self.session.game.players[self.session.game.current_player or 0]
        with Vertical(id="dialog"):
            yield Label(_("{name}: write the points of a box").format(name=name), id="question")
            options = [(c.display_name, c) for c in self.boxes]
            yield Select(options, value=self.start, allow_blank=False, id="write-box")
            yield Input(
                placeholder=_("points"), restrict=r"[0-9]*", max_length=4, id="write-points"
            )
            yield Static(self._five_alike_note(), id="write-note")
            yield Static("", id="write-error")
            with Horizontal(id="answers"):
                yield Button(_("Write (Enter)"), id="write-ok", variant="success")
                yield Button(_("Cancel (Esc)"), id="write-cancel")

    def _five_alike_note(self) -> str:
        edition = self.session.rules.edition
        five = edition.five_of_a_kind.display_name
        if edition.extra_rules:
            return _(
                "A {five}? Press x on the card instead: entered as dice, its bonus and "
                "the Joker rule follow."
            ).format(five=five)
        return _("A {five}? Press x on the card instead: entered as dice.").format(five=five)

    def on_mount(self) -> None:
        self.query_one("#write-points", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        await self.action_write()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "write-ok":
            await self.action_write()
        else:
            self.dismiss(False)

    async def action_write(self) -> None:
        category = self.query_one("#write-box", Select).value
        text = self.query_one("#write-points", Input).value
        error = self.query_one("#write-error", Static)
        if not isinstance(category, Box):
            error.update(_("Choose a box."))
            return
        if not text:
            error.update(_("Type the points written in {box}.").format(box=category.display_name))
            return
        refused = await self.write(category, int(text))
        if refused is not None:
            error.update(refused)
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class YahtzeeOfScreen(SpokenModal[int | None]):
    """A Yahtzee, asked for explicitly: which face (1-6). Its five dice are then entered,
    and the player picks the box (the engine applies the Joker rule and the bonus)."""

    BINDINGS = [
        *(Binding(str(face), f"face({face})", N_("The face"), show=False) for face in FACES),
        Binding("escape", "face(0)", N_("Cancel")),
    ]

    def __init__(self, five: str = "Yahtzee", *, id: str | None = None) -> None:
        """``five``: the name of five alike in the game's edition."""
        super().__init__(id=id)
        self.five = five

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            question = _("A {five} of which face? (1-6, Esc cancels)").format(five=self.five)
            yield Label(question, id="question")
            with Horizontal(id="answers"):
                for face in FACES:
                    yield Button(str(face), id=f"yahtzee-{face}", classes="face")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_face(int((event.button.id or "0").rsplit("-", 1)[-1]))

    def action_face(self, face: int) -> None:
        self.dismiss(face or None)


class EntryScreen(SpokenScreen[None]):
    """The play screen's part for a game of entered dice (`PlayScreen` is one)."""

    session: GameSession
    log_line: str
    book: SittingBook

    def refresh_view(self) -> None:
        raise NotImplementedError

    async def play(self, command: commands.Command) -> bool:
        """Give ``command`` to the game's room (its refusal shown): whether carried out."""
        raise NotImplementedError

    def highlighted_box(self) -> Box | None:
        raise NotImplementedError

    def entry_info(self) -> list[str]:
        """What to do in a game of entered dice, with the dice showing and their roll."""
        dice = self.session.game.dice
        if dice is None:
            five = self.session.rules.edition.five_of_a_kind.display_name
            return [
                # Translators: two lines of at most 30 characters (the narrow side panel)
                *_("Roll at the table, type the\nfive dice (like 33356), Enter.").splitlines(),
                _("r: which roll (optional)"),
                _("w: write a box's points"),
                _("x: a {five} of a face").format(five=five),
            ]
        after = self.session.next_roll
        return [
            _("Dice: {dice} ({roll}).").format(
                dice=dice.spaced(), roll=roll_words(self.entered_roll())
            ),
            _("Score: a box's key (on the card) or click it."),
            _("Dice typed next: roll {roll} (r corrects).").format(roll=after)
            if after is not None
            else _("Typed again, dice are corrected."),
        ]

    def action_print_pad(self) -> None:
        """The sitting's pad so far, this game included, to print."""
        print_pad(self, self.book, self.session)

    @property
    def entry(self) -> DiceEntry:
        return self.query_one(DiceEntry)

    def entry_check(self, action: str) -> bool | None:
        """Whether an action of either kind of game is on (`Screen.check_action`)."""
        entered = self.session.game.entered
        if action in ENTRY_ACTIONS:
            if not entered:
                return False
            if action == "submit_dice":  # Enter fills the highlighted box otherwise
                return bool(self.entry.typed)
            return True
        if action in ("roll", "keep_die"):
            return not entered
        return True

    def _my_turn(self) -> bool:
        seat = self.session.game.current_player
        return seat is not None and not self.session.is_bot(seat)

    def action_type_die(self, digit: int) -> None:
        if not self._my_turn():
            return
        if not self.entry.typed and self.session.game.dice is not None:
            # new dice over those entered this turn: the next roll, as a player at the
            # table means them (r makes them a correction instead)
            self.entry.roll = self.session.next_roll
        if not self.entry.type(str(digit)):
            count = len(self.entry.typed)
            self.notify(
                ngettext(
                    "That is {count} character: press Enter, or Backspace.",
                    "That is {count} characters: press Enter, or Backspace.",
                    count,
                ).format(count=count)
            )

    def action_erase_die(self) -> None:
        self.entry.erase()
        self._typed_nothing()

    def action_clear_dice(self) -> None:
        self.entry.clear()
        self._typed_nothing()

    def _typed_nothing(self) -> None:
        """Nothing typed any more: the roll shown is again that of the dice entered."""
        if not self.entry.typed and self.session.game.dice is not None:
            self.entry.roll = self.entered_roll()
            self.entry.show()

    def action_no_roll(self) -> None:
        self.notify(_(NO_ROLL))

    async def action_submit_dice(self) -> None:
        await self._enter(self.entry.typed)

    async def _enter(self, dice: str, what: str = "") -> None:
        """Enter ``dice`` (as typed) with the roll said: the room's sentence when it
        refuses them (the typed dice stay to correct), else the boxes show their points."""
        if not await self.play(commands.Dice(dice, self.entry.roll)):
            return
        self.entry.clear()
        self.log_line = what  # the dice entered show above it
        self.refresh_view()

    async def action_roll_number(self) -> None:
        """Which roll of the turn the dice are: not said, 1, 2, 3, then not said again.
        Said for dice already entered, they are entered again with it (the hint then
        advises which to keep). For dice typed over those entered this turn: the next
        roll first, then a correction of those (their own roll), then the others."""
        roll = self.entry.roll
        dice = self.session.game.dice
        if self.entry.typed and dice is not None:
            showing, after = self.entered_roll(), self.session.next_roll
            order = list(dict.fromkeys([after, showing, 1, 2, ROLLS_PER_TURN, None]))
            at = order.index(roll) if roll in order else -1
            self.entry.roll = order[(at + 1) % len(order)]
            self.entry.show()
            return
        self.entry.roll = 1 if roll is None else (None if roll >= ROLLS_PER_TURN else roll + 1)
        self.entry.show()
        if dice is not None and not self.entry.typed and self._my_turn():
            await self._enter(str(dice))
        else:
            self.refresh_view()

    def entered_roll(self) -> int | None:
        """The roll said with the dice showing (their last entry), if any."""
        return self.session.said_roll

    def action_write(self) -> None:
        if not self._my_turn():
            return
        self.app.push_screen(WriteScreen(self.session, self.highlighted_box(), self._write))

    async def _write(self, category: Box, points: int) -> str | None:
        """Points written in a box (the line saying so follows from the room's event)."""
        outcome = await self.play_quietly(commands.Write(category.key, points))
        return outcome.message if isinstance(outcome, commands.Refused) else None

    async def play_quietly(self, command: commands.Command) -> commands.Outcome:
        """Give ``command`` to the game's room; its refusal is the caller's to show."""
        raise NotImplementedError

    def action_yahtzee_of(self) -> None:
        if self._my_turn():
            self.app.push_screen(
                YahtzeeOfScreen(self._five_name(), id="yahtzee-of"), self._yahtzee_of
            )

    async def _yahtzee_of(self, face: int | None) -> None:
        if face is None:
            return
        faces = pgettext("dice faces", FACE_WORDS[face - 1])
        if self.session.rules.edition.extra_rules:
            # Translators: {five} is the edition's name of five alike (Yahtzee, Yatzy);
            # {faces} five dice of a face, in words ("fours")
            what = _("A {five} of {faces}: choose its box (the Joker rule and the bonus follow).")
        else:
            what = _("A {five} of {faces}: choose its box.")
        await self._enter(str(face) * DICE_COUNT, what.format(five=self._five_name(), faces=faces))

    def _five_name(self) -> str:
        return self.session.rules.edition.five_of_a_kind.display_name


__all__ = [
    "ENTRY_BINDINGS",
    "DiceEntry",
    "EntryScreen",
    "WriteScreen",
    "YahtzeeOfScreen",
]
