"""The new-game screen (seats, rules, seed, hints, real dice) and the offer to resume a
game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from ..core import (
    BOT_CHOICES,
    DEFAULT_LEVEL,
    MAX_LEVEL,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MIN_LEVEL,
    BotSpec,
    RuleSet,
    YahtzeeError,
    player_name,
)
from ..store import GameSummary, Seat
from .printing import PRINT_IT, write_blank_pad, written_note
from .widgets import TickBox

HUMAN = "human"
BOTS = tuple(choice.spec for choice in BOT_CHOICES)
"""The computer players a seat offers (`BOT_CHOICES`, as the page offers them): the levels,
then the two that play perfectly, for points (``optimal``) or to finish first
(``winning``)."""
KINDS = [
    ("Human", HUMAN),
    *((f"Bot, {bot.key.replace('level', 'level ')}", bot.key) for bot in BOTS),
]


def kinds_help() -> str:
    """One line per choice of bot, saying what it plays for."""
    levels = (
        f"level {MIN_LEVEL}-{MAX_LEVEL}: plays for points, from many mistakes ({MIN_LEVEL}) "
        f"to none ({MAX_LEVEL})"
    )
    lines = [levels, *(f"{c.key}: {c.about}" for c in BOT_CHOICES if c.spec.level is None)]
    return "Bots: " + "\n      ".join(lines)


class SeatRow(Horizontal):
    def __init__(self, number: int, name: str, kind: str = HUMAN) -> None:
        """``kind``: ``human``, or a bot's key (``level3``, ``winning``)."""
        super().__init__(classes="seat")
        self.number, self.start_name, self.start_kind = number, name, kind

    def compose(self) -> ComposeResult:
        yield Label(f"{self.number}.", classes="seat-number")
        yield Input(
            self.start_name,
            placeholder="name (optional for a bot)",
            max_length=MAX_NAME_LENGTH,
            classes="seat-name",
        )
        yield Select(KINDS, value=self.start_kind, allow_blank=False, classes="seat-kind")

    def seat(self) -> Seat:
        """Who sits here: a bot without a name is called by its kind (Bot 2 (level 3),
        Bot 2 (winning))."""
        name = self.query_one(Input).value.strip()
        kind = str(self.query_one(Select).value or HUMAN)
        if kind == HUMAN:
            return Seat(name or f"Player {self.number}")
        bot = BotSpec.parse(kind)
        return Seat(name or bot.seat_name(self.number - 1), bot)


class NewGameScreen(Screen[None]):
    def __init__(
        self,
        rules: RuleSet | None = None,
        *,
        id: str | None = None,
        entered: bool = False,
        undo: bool | None = None,
    ) -> None:
        """``entered``: real dice preselected; ``undo``: undo ticked (``--undo``)."""
        super().__init__(id=id)
        self.rules = rules or RuleSet.official()
        self.entered = entered
        self.undo = undo

    # Short labels: the whole footer fits in 80 columns. ``q`` quits unless a text field
    # has the focus (it types there); ctrl+q quits from anywhere.
    BINDINGS = [
        Binding("ctrl+s", "start", "Start"),
        Binding("ctrl+a", "add_seat", "Player"),
        Binding("ctrl+b", "add_bot", "Bot"),
        Binding("ctrl+d", "remove_seat", "Remove", show=False),
        Binding("ctrl+e", "toggle_real_dice", "Real dice", show=False),
        Binding("ctrl+t", "daily", "Daily"),
        Binding("f4", "blank_pad", "Blank pad", show=False),
        Binding("f2", "app.history", "History"),
        Binding("f3", "app.stats", "Stats"),
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static("New game", id="title")
        with VerticalScroll(id="seats"):
            yield SeatRow(1, "You")
        yield Static(kinds_help(), id="kinds-help")
        with Horizontal(id="options"):
            names = list(RuleSet.names())
            if self.rules.name not in names:  # a combination such as official+playoff
                names.append(self.rules.name)
            yield Select(
                [(name, name) for name in names],
                value=self.rules.name,
                allow_blank=False,
                id="rules",
            )
            seed = Input(placeholder="seed", id="seed", restrict=r"[0-9]*", max_length=9)
            seed.tooltip = "Optional: the same seed rolls the same dice."
            yield seed
            yield TickBox("Hints", True, id="hints")
            undo = TickBox("Undo", bool(self.undo), id="undo")
            undo.tooltip = (
                "Let players take back their last placement until the next player rolls "
                "(a bot waits a few seconds for it). A game of one player always may."
            )
            yield undo
            real = TickBox("Real dice", self.entered, id="real-dice")
            real.tooltip = (
                "The players roll real dice at the table and type them in (or write a "
                "box's points). People only: no bots. Ctrl+E switches it."
            )
            yield real
        with Horizontal(id="buttons"):
            yield Button("Add player", id="add")
            yield Button("Add bot", id="add-bot")
            yield Button("Remove seat", id="remove")
            yield Button("Start", id="start", variant="success")
            daily = Button("Daily game", id="daily", variant="primary")
            daily.tooltip = (
                "Today's daily game (ctrl+t): the same dice for everyone today, for the "
                "first seat's player alone; no hints, no undo. Offline its dice come from "
                "the date, so it is not ranked."
            )
            yield daily
        yield Static("", id="best")
        yield Footer(show_command_palette=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        {
            "add": self.action_add_seat,
            "add-bot": self.action_add_bot,
            "remove": self.action_remove_seat,
            "start": self.action_start,
            "daily": self.action_daily,
        }[event.button.id or "start"]()

    def action_add_seat(self, kind: str = HUMAN) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) >= MAX_PLAYERS:
            self.notify(f"A game has at most {MAX_PLAYERS} players.", severity="warning")
            return
        number = len(rows) + 1
        name = f"Player {number}" if kind == HUMAN else ""  # a bot is named by its kind
        self.query_one("#seats").mount(SeatRow(number, name, kind))

    def action_add_bot(self) -> None:
        self.action_add_seat(BotSpec.at_level(DEFAULT_LEVEL).key)

    def action_remove_seat(self) -> None:
        rows = list(self.query(SeatRow))
        if len(rows) > 1:
            rows[-1].remove()

    def seats(self) -> list[Seat]:
        return [row.seat() for row in self.query(SeatRow)]

    def action_toggle_real_dice(self) -> None:
        real = self.query_one("#real-dice", Checkbox)
        real.value = not real.value

    def action_blank_pad(self) -> None:
        """A blank pad for these players and rules, to print and fill in by hand."""
        rules = RuleSet.named(str(self.query_one("#rules", Select).value))
        names = [row.query_one(Input).value for row in self.query(SeatRow)]
        try:
            path = write_blank_pad(rules, names)
        except (OSError, YahtzeeError) as error:
            self.notify(f"Could not write the pad: {error}", severity="error")
            return
        note = written_note("Blank pad", path, self.app.size.width, PRINT_IT)
        self.notify(note, timeout=10)

    def action_start(self) -> None:
        rules = str(self.query_one("#rules", Select).value)
        seed_text = self.query_one("#seed", Input).value
        hints = self.query_one("#hints", Checkbox).value
        ticked = self.query_one("#undo", Checkbox).value
        undo = True if ticked else (False if self.undo is False else None)  # None: the game's
        entered = self.query_one("#real-dice", Checkbox).value
        try:
            self.app.start_game(  # type: ignore[attr-defined]
                self.seats(),
                RuleSet.named(rules),
                int(seed_text) if seed_text else None,
                hints,
                undo=undo,
                entered=entered,
            )
        except YahtzeeError as error:  # two seats of one name, a bot with real dice
            self.notify(str(error), severity="error")

    def action_daily(self) -> None:
        """Today's daily game for the first seat's player (the other seats sit out)."""
        try:
            name = player_name(self.query_one(SeatRow).query_one(Input).value or "You")
            self.app.start_daily(name)  # type: ignore[attr-defined]
        except YahtzeeError as error:  # played today already: the service's sentence
            self.notify(str(error), severity="error", timeout=10)


class ResumeScreen(ModalScreen[str]):
    """Offers the latest unfinished game, says how many there are, and leads to the
    history for the others. Answers ``"resume"``, ``"history"`` or ``"new"``."""

    BINDINGS = [
        Binding("y", "answer('resume')", "Resume"),
        Binding("h,f2", "answer('history')", "History"),
        Binding("n,escape", "answer('new')", "New game"),
    ]

    def __init__(self, latest: GameSummary, count: int = 1, reached: str = "") -> None:
        """``count``: how many unfinished games there are; ``reached``: how far the latest
        got (``round 5 of 13``)."""
        super().__init__(id="resume")
        self.latest, self.count, self.reached = latest, count, reached

    def compose(self) -> ComposeResult:
        s = self.latest
        where = f", {self.reached}" if self.reached else ""
        game = (
            f"{', '.join(s.players)} ({s.rules} rules{where}), "
            f"last played {s.updated_at:%Y-%m-%d %H:%M} UTC"
        )
        if self.count > 1:
            text = (
                f"You have {self.count} unfinished games. The latest: {game}.\n\n"
                "Resume it (y), choose among all of them in the history (h), "
                "or start a new game (n)?"
            )
        else:
            text = f"Resume the unfinished game of {game}?"
        with Vertical(id="dialog"):
            yield Static(text, id="question")
            with Horizontal(id="answers"):
                yield Button("Resume (y)", id="yes", variant="success")
                yield Button("History (h)", id="history")
                yield Button("New game (n)", id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"yes": "resume", "history": "history"}.get(event.button.id or "", "new"))

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
