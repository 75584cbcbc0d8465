"""The new-game screen (seats, rules, seed, hints, real dice) and the offer to resume a
game."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
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
from ..core.language import (
    LANGUAGES,
    N_,
    NP_,
    _,
    current,
    ngettext,
    pgettext,
    set_language,
)
from ..store import GameSummary, Seat
from .printing import PRINT_IT, write_blank_pad, written_note
from .widgets import TickBox
from .words import SpokenModal, SpokenScreen, at_moment

HUMAN = "human"
BOTS = tuple(choice.spec for choice in BOT_CHOICES)
"""The computer players a seat offers (`BOT_CHOICES`, as the page offers them): the levels,
then the two that play perfectly, for points (``optimal``) or to finish first
(``winning``)."""
BOT_WORDS = {
    # Translators: a computer player that plays for the most points (a seat's kind:
    # "Bot, optimal"; the bots' help: "optimal: plays for the most points")
    "optimal": NP_("bot", "optimal"),
    # Translators: a computer player that plays to finish first (a seat's kind: "Bot,
    # winning")
    "winning": NP_("bot", "winning"),
}
"""The words of the bots that are not a level, by key (marked; translated where shown)."""


def bot_word(key: str) -> str:
    """A bot's key (``optimal``) as the player's language says it."""
    word = BOT_WORDS.get(key)
    return key if word is None else pgettext("bot", word)


def kind_name(key: str) -> str:
    """A seat's kind as its menu shows it: ``Human``, ``Bot, level 3``, ``Bot, winning``."""
    if key == HUMAN:
        # Translators: a seat's kind on the new-game screen (a person, not a bot)
        return _("Human")
    level = BotSpec.parse(key).level
    if level is not None:
        return _("Bot, level {level}").format(level=level)
    return _("Bot, {kind}").format(kind=bot_word(key))


def kinds() -> list[tuple[str, str]]:
    """The kinds a seat offers, as its menu lists them: (name, key)."""
    return [(kind_name(key), key) for key in (HUMAN, *(bot.key for bot in BOTS))]


def kinds_help() -> Table:
    """One line per choice of bot, saying what it plays for (a line too long for the
    screen wraps within its column, after "Bots:")."""
    levels = _(
        "level {low}-{high}: plays for points, from many mistakes ({low}) to none ({high})"
    ).format(low=MIN_LEVEL, high=MAX_LEVEL)
    lines = [
        levels,
        *(
            _("{kind}: {about}").format(kind=bot_word(c.key), about=_(c.about))
            for c in BOT_CHOICES
            if c.spec.level is None
        ),
    ]
    table = Table.grid(padding=(0, 1, 0, 0))
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    # Translators: before the lines that say what each bot plays for
    table.add_row(_("Bots:"), "\n".join(lines))
    return table


def default_name(number: int) -> str:
    """A seat's name until one is typed: ``You`` for the first seat, else ``Player 2``."""
    # Translators: the first seat's name until the player types one
    return _("You") if number == 1 else seat_name(number)


def seat_name(number: int) -> str:
    """A person's seat without a name: ``Player 2``."""
    return _("Player {number}").format(number=number)


class SeatRow(Horizontal):
    def __init__(self, number: int, name: str, kind: str = HUMAN) -> None:
        """``kind``: ``human``, or a bot's key (``level3``, ``winning``)."""
        super().__init__(classes="seat")
        self.number, self.start_name, self.start_kind = number, name, kind

    def compose(self) -> ComposeResult:
        yield Label(f"{self.number}.", classes="seat-number")
        yield Input(
            self.start_name,
            placeholder=_("name (optional for a bot)"),
            max_length=MAX_NAME_LENGTH,
            classes="seat-name",
        )
        choices = kinds()
        kind = Select(choices, value=self.start_kind, allow_blank=False, classes="seat-kind")
        # wide enough for the longest kind in the player's language (and the arrow)
        kind.styles.width = max(KIND_WIDTH, max(len(name) for name, _key in choices) + 8)
        yield kind

    def name_and_kind(self) -> tuple[str, str]:
        """The name typed here (as typed) and the kind chosen (``human`` or a bot's key)."""
        return self.query_one(Input).value, str(self.query_one(Select).value or HUMAN)

    def seat(self) -> Seat:
        """Who sits here: a bot without a name is called by its kind (Bot 2 (level 3),
        Bot 2 (winning))."""
        typed, kind = self.name_and_kind()
        name = typed.strip()
        if kind == HUMAN:
            return Seat(name or seat_name(self.number))
        bot = BotSpec.parse(kind)
        return Seat(name or bot.seat_name(self.number - 1), bot)


SEED_WIDTH = 12
"""The seed's field: at least this wide (wider for a longer placeholder)."""
KIND_WIDTH = 24
"""A seat's kind menu: at least this wide (wider where the language's names are longer)."""


@dataclass
class Setup:
    """What the new-game screen holds, kept while it is drawn again in another language:
    each seat's name (as typed) and kind, the rules, the seed and the ticks."""

    seats: list[tuple[str, str]]
    rules: str
    seed: str = ""
    hints: bool = True
    undo: bool = False
    real: bool = False


class NewGameScreen(SpokenScreen[None]):
    AUTO_FOCUS = "#seats"
    """The seats have the focus first (as before the language came above them)."""

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
        self.setup = Setup(
            [(default_name(1), HUMAN)], self.rules.name, undo=bool(undo), real=entered
        )

    # Short labels: the whole footer fits in 80 columns. ``q`` quits unless a text field
    # has the focus (it types there); ctrl+q quits from anywhere.
    BINDINGS = [
        # Translators: the footer's keys are short (the whole footer fits 80 columns)
        Binding("ctrl+s", "start", N_("Start")),
        # Translators: a key in the footer: add a player (a person) to the game
        Binding("ctrl+a", "add_seat", N_("Player")),
        # Translators: a key in the footer: add a bot (a computer player) to the game
        Binding("ctrl+b", "add_bot", N_("Bot")),
        Binding("ctrl+d", "remove_seat", N_("Remove"), show=False),
        Binding("ctrl+e", "toggle_real_dice", N_("Real dice"), show=False),
        # Translators: a key in the footer: today's daily game
        Binding("ctrl+t", "daily", N_("Daily")),
        Binding("f4", "blank_pad", N_("Blank pad"), show=False),
        Binding("f2", "app.history", N_("History")),
        # Translators: a key in the footer: the statistics per player
        Binding("f3", "app.stats", N_("Stats")),
        Binding("f1", "app.help", N_("Help")),
        Binding("ctrl+q", "app.quit", N_("Quit")),
        Binding("q", "app.quit", N_("Quit"), show=False),
    ]

    def compose(self) -> ComposeResult:
        setup = self.setup
        with Horizontal(id="title-row"):
            yield Static(_("New game"), id="title")
            yield Label(_("Language"), id="language-label")
            language = Select(
                [(language.name, language.code) for language in LANGUAGES],
                value=current(),
                allow_blank=False,
                compact=True,
                id="language",
            )
            language.tooltip = _("The language of the game (also: yahtzee --lang CODE).")
            yield language
        with VerticalScroll(id="seats"):
            for number, (name, kind) in enumerate(setup.seats, 1):
                yield SeatRow(number, name, kind)
        yield Static(kinds_help(), id="kinds-help")
        with Horizontal(id="options"):
            names = list(RuleSet.names())
            if setup.rules not in names:  # a combination such as official+playoff
                names.append(setup.rules)
            yield Select(
                [(name, name) for name in names],
                value=setup.rules,
                allow_blank=False,
                id="rules",
            )
            # Translators: the placeholder of the seed's field (a number that decides the
            # dice); short: the field is about 8 characters wide
            seed = Input(setup.seed, placeholder=_("seed"), id="seed", restrict=r"[0-9]*",
                         max_length=9)  # fmt: skip
            seed.tooltip = _("Optional: the same seed rolls the same dice.")
            seed.styles.width = max(SEED_WIDTH, len(seed.placeholder) + 5)
            yield seed
            yield TickBox(_("Hints"), setup.hints, id="hints")
            # Translators: a checkbox: whether players may take back a placement
            undo = TickBox(_("Undo"), setup.undo, id="undo")
            undo.tooltip = _(
                "Let players take back their last placement until the next player rolls "
                "(a bot waits a few seconds for it). A game of one player always may."
            )
            yield undo
            real = TickBox(_("Real dice"), setup.real, id="real-dice")
            real.tooltip = _(
                "The players roll real dice at the table and type them in (or write a "
                "box's points). People only: no bots. Ctrl+E switches it."
            )
            yield real
        with Horizontal(id="buttons"):
            yield Button(_("Add player"), id="add")
            yield Button(_("Add bot"), id="add-bot")
            yield Button(_("Remove seat"), id="remove")
            yield Button(_("Start"), id="start", variant="success")
            daily = Button(_("Daily game"), id="daily", variant="primary")
            daily.tooltip = _(
                "Today's daily game (ctrl+t): the same dice for everyone today, for the "
                "first seat's player alone; no hints, no undo. Offline its dice come from "
                "the date, so it is not ranked."
            )
            yield daily
        yield Static("", id="best")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.call_after_refresh(self._fit_rows)

    def on_resize(self) -> None:
        """The rows of options and buttons laid out again for the new width."""
        for row in self.query("#options, #buttons"):
            row.remove_class("tight")
        self.call_after_refresh(self._fit_rows)

    def _fit_rows(self) -> None:
        """A row of options or buttons wider than the screen (longer words in some
        languages) is drawn tight: narrower fields and buttons, no frame around the
        ticks, so that nothing is cut off at 80 columns."""
        for row in self.query("#options, #buttons"):
            needed = sum(child.outer_size.width for child in row.children)
            if needed > row.size.width > 0:
                row.add_class("tight")

    async def on_select_changed(self, event: Select.Changed) -> None:
        """The language chosen: the game speaks it from now on (every later screen), and
        this screen is drawn again in it, keeping what was set up."""
        if event.select.id != "language":
            return
        event.stop()
        code = event.value
        if not isinstance(code, str) or code == current():
            return
        self.setup = self._held()
        typed_defaults = [name == default_name(n) for n, (name, _kind) in
                          enumerate(self.setup.seats, 1)]  # fmt: skip
        set_language(code)
        self.setup.seats = [  # a name the screen gave (You, Player 2) in the new language
            (default_name(n) if was_default else name, kind)
            for n, ((name, kind), was_default) in enumerate(
                zip(self.setup.seats, typed_defaults, strict=True), 1
            )
        ]
        await self.recompose()
        self.query_one("#language", Select).focus()
        self.call_after_refresh(self._fit_rows)

    def _held(self) -> Setup:
        """What the screen holds now."""
        return Setup(
            [row.name_and_kind() for row in self.query(SeatRow)],
            str(self.query_one("#rules", Select).value),
            self.query_one("#seed", Input).value,
            self.query_one("#hints", Checkbox).value,
            self.query_one("#undo", Checkbox).value,
            self.query_one("#real-dice", Checkbox).value,
        )

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
            self.notify(
                _("A game has at most {count} players.").format(count=MAX_PLAYERS),
                severity="warning",
            )
            return
        number = len(rows) + 1
        name = seat_name(number) if kind == HUMAN else ""  # a bot is named by its kind
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
            self.notify(_("Could not write the pad: {error}").format(error=error), severity="error")
            return
        note = written_note(_("Blank pad written to"), path, self.app.size.width, _(PRINT_IT))
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
            typed = self.query_one(SeatRow).query_one(Input).value
            name = player_name(typed or default_name(1))
            self.app.start_daily(name)  # type: ignore[attr-defined]
        except YahtzeeError as error:  # played today already: the service's sentence
            self.notify(str(error), severity="error", timeout=10)


class ResumeScreen(SpokenModal[str]):
    """Offers the latest unfinished game, says how many there are, and leads to the
    history for the others. Answers ``"resume"``, ``"history"`` or ``"new"``."""

    BINDINGS = [
        Binding("y", "answer('resume')", N_("Resume")),
        Binding("h,f2", "answer('history')", N_("History")),
        Binding("n,escape", "answer('new')", N_("New game")),
    ]

    def __init__(self, latest: GameSummary, count: int = 1, reached: str = "") -> None:
        """``count``: how many unfinished games there are; ``reached``: how far the latest
        got (``round 5 of 13``)."""
        super().__init__(id="resume")
        self.latest, self.count, self.reached = latest, count, reached

    def compose(self) -> ComposeResult:
        s = self.latest
        players, when = ", ".join(s.players), at_moment(s.updated_at)
        if self.reached:
            # Translators: {rules} is the rule set's name (official, yatzy); {reached}
            # says how far the game got ("round 5 of 13"); {when} a date and time
            game = _("{players} ({rules} rules, {reached}), last played {when} UTC").format(
                players=players, rules=s.rules, reached=self.reached, when=when
            )
        else:
            game = _("{players} ({rules} rules), last played {when} UTC").format(
                players=players, rules=s.rules, when=when
            )
        if self.count > 1:
            text = ngettext(
                "You have {count} unfinished game. The latest: {game}.\n\n"
                "Resume it (y), choose among all of them in the history (h), "
                "or start a new game (n)?",
                "You have {count} unfinished games. The latest: {game}.\n\n"
                "Resume it (y), choose among all of them in the history (h), "
                "or start a new game (n)?",
                self.count,
            ).format(count=self.count, game=game)
        else:
            text = _("Resume the unfinished game of {game}?").format(game=game)
        with Vertical(id="dialog"):
            yield Static(text, id="question")
            with Horizontal(id="answers"):
                yield Button(_("Resume (y)"), id="yes", variant="success")
                yield Button(_("History (h)"), id="history")
                yield Button(_("New game (n)"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss({"yes": "resume", "history": "history"}.get(event.button.id or "", "new"))

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
