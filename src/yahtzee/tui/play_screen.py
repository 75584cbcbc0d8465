"""The play screen: dice, every scorecard, hints, bots taking their turns visibly.

The game is played through its table's room, hosted here on Textual's own event loop
(`LocalRoom`): a key or a click becomes a command given to the room, the screen draws
what the room tells (`Played`, the win-chance meter as `MeterRead`), and a refusal shows
as an error. The bots, their pause, the wait while a placement may still be taken back,
reading the meter and saving are the room's."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from functools import partial
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Label, Static
from textual.worker import WorkerCancelled, get_current_worker

from ..core import (
    Box,
    Game,
    Phase,
    Rolled,
    Scored,
    Situation,
    Undone,
    Written,
    YahtzeeError,
)
from ..core.language import N_, _
from ..render.numbers import decimal
from ..service import GameSession, commands
from ..service.local_room import LocalRoom
from ..service.meter import MeterReading
from ..service.room_events import MeterRead, Played, RoomEvent
from ..service.tray import Tray

if TYPE_CHECKING:
    from ..solver import Advice
from .entry import ENTRY_BINDINGS, NO_ROLL, DiceEntry, EntryScreen
from .sitting import SittingBook
from .widgets import (
    DiceTray,
    Die,
    ScoreCard,
    WinChances,
    WinProgress,
    box_keys,
    card_width,
    every_box_key,
)
from .words import SpokenModal

HINT_OPTIONS = 5
UNDO_OFFER = N_("  (u takes it back)")
"""Said after a placement while it can be taken back (not once the next roll is made)."""
UNDO_WAIT_S = 5.0
"""Seconds a bot waits after a placement that may still be taken back (`GameSession.
bot_waits`), counting down on the screen; ``s`` lets it play at once, ``u`` takes the
placement back."""
clock = time.monotonic
"""The clock of a bot's countdown as shown (a test may stop it)."""
UNDO_OFF_HOW = N_("Tick Undo on the new-game screen (or play with --undo) to allow it.")
"""Said after the service's refusal when taking back is off in the game."""


class ConfirmZero(SpokenModal[bool]):
    """Asks before a box is filled with zero."""

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, category: Box) -> None:
        super().__init__(id="confirm-zero")
        self.category = category

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            question = _("Score 0 in {box}?").format(box=self.category.display_name)
            yield Label(question, id="question")
            with Horizontal(id="answers"):
                yield Button(_("Yes, score 0 (y)"), id="yes", variant="warning")
                yield Button(_("No (n)"), id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class PlayScreen(EntryScreen):
    BINDINGS = [
        *ENTRY_BINDINGS,
        # Translators: the play screen's footer keys are short (the footer has 80 columns)
        Binding("r", "roll", N_("Roll")),
        Binding("space", "roll", N_("Roll"), show=False),
        *(
            Binding(str(i + 1), f"keep_die({i})", N_("Keep or release a die"), show=False)
            for i in range(5)
        ),
        *(
            Binding(key, f"score_key('{key}')", N_("Score a box"), show=False)
            for key in every_box_key()
        ),
        Binding("enter", "choose", N_("Score box"), show=False),
        # Translators: a key in the footer: the advisor's hint
        Binding("h", "hint", N_("Hint")),
        # Translators: a key in the footer: take back the last placement
        Binding("u", "undo", N_("Undo")),
        Binding("u", "undo_refused", N_("Undo"), show=False),
        # Translators: a key in the footer: the waiting computer player plays now
        Binding("s", "skip", N_("Go on")),
        Binding("s", "skip_pause", N_("Skip wait"), show=False),
        Binding("p", "print_pad", N_("Print pad"), show=False),
        Binding("question_mark", "app.help", N_("Help")),
        # Translators: a key in the footer: light or dark colours
        Binding("t", "app.toggle_dark", N_("Theme")),
        # Translators: a key in the footer: quit (the game is saved)
        Binding("q", "app.quit", N_("Quit (saved)")),
    ]
    COMPACT_BELOW = 41
    """The big dice need a side panel of 41 columns; below this much room left for the
    card's player columns, the dice are drawn small."""

    def __init__(
        self,
        session: GameSession,
        bot_pause: float = 0.6,
        best: int | None = None,
        book: SittingBook | None = None,
        undo_wait: float = UNDO_WAIT_S,
    ) -> None:
        """``book``: the sitting this game continues (its earlier games show on the card);
        ``undo_wait``: seconds a bot waits while a placement may still be taken back."""
        super().__init__(id="play")
        self.session = session
        self.book = book or SittingBook()
        self.past = [game for _one, game in self.book.past(session)]
        self.room = LocalRoom(session, self, bot_delay=bot_pause, undo_wait=undo_wait, meter=True)
        self.bot_due: float | None = None  # when a waiting bot plays, as `clock` shows it
        self.countdown: Timer | None = None  # redraws the bot's countdown each second
        self.best = best
        self.compact = False
        self.show_hint = False
        self.log_line = ""
        self.advice: Advice | None = None
        self.hint_pending: Situation | None = None
        self.over = False  # the game's end was told: its screen follows
        self.win: WinChances | None = None  # the win-chance meter, as the room last told

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            with Vertical(id="card-area"):
                yield ScoreCard()
                yield WinProgress(id="win-progress")
            with Vertical(id="side"):
                yield DiceTray(id="tray")
                yield Button(_("Roll (r)"), id="roll", variant="primary")
                yield DiceEntry(id="entry")
                yield Static(id="turn-info")
                yield Static(id="hint", classes="hidden")
        yield Footer()

    @property
    def held(self) -> list[bool]:
        """The places the player to act holds for the next roll (the room keeps them)."""
        return list(self.placed().flags())

    @property
    def shown(self) -> Game:
        """The game as the room tells it (a bot's turn move by move)."""
        return self.room.live.committed_game()

    def placed(self) -> Tray:
        """The dice as they lie (the room's): held dice stay in their places through a
        roll, so that keys 1-5 keep naming the same dice."""
        live = self.room.live
        return live.tray_for(live.committed_game())

    def on_resize(self, event: events.Resize) -> None:
        game = self.session.game
        card = card_width(game.players, len(self.past), game.rules.edition)
        compact = event.size.width - card < self.COMPACT_BELOW
        if compact != self.compact:
            self.compact = compact
            self.set_class(compact, "compact")
            self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo shows in the footer only where the game allows it, greyed when there is
        nothing to take back."""
        if action == "undo":
            if not self.session.undo_on:
                return False
            return True if self.session.can_undo else None
        if action == "skip":  # shown while a bot waits for the player to go on
            return self.room.live.bot_due is not None
        if action == "roll" and not self._human_turn():
            return None
        return self.entry_check(action)

    def on_mount(self) -> None:
        self.app.title = self.session.rules.edition.title  # "Yahtzee", "Yatzy"
        self.query_one(ScoreCard).focus()
        self.refresh_view()
        self.room.start()
        if not self.session.solver_ready:  # get it ready before the first hint or bot
            self._load_solver()

    def on_unmount(self) -> None:
        self.room.close()  # the game stays as saved

    @work(group="solver", exclusive=True)
    async def _load_solver(self) -> None:
        """The solver loaded (or its tables built) in a thread: keys keep working."""
        try:
            await asyncio.to_thread(self.session.solver, progress=self._solver_progress)
        except YahtzeeError as error:  # no advisor for these rules: the game goes on
            self.building = _("No advisor for the {rules} rules: {error}").format(
                rules=self.session.rules.name, error=error
            )
        self._refresh_if_shown()

    def _shown(self) -> bool:
        """Whether the screen still has its widgets (work that ends as the screen is
        taken down shows nothing)."""
        return self.is_attached and bool(self.query(ScoreCard))

    def _refresh_if_shown(self) -> None:
        if self._shown():
            self.refresh_view()

    def _solver_progress(self, done: int, total: int) -> None:
        """A table is being built: say how far it got (and stop if the screen went)."""
        if get_current_worker().is_cancelled:
            raise WorkerCancelled
        self.app.call_from_thread(self._show_building, done, total)

    def _show_building(self, done: int, total: int) -> None:
        self.building = _("Solving the {rules} rules: {done}/{total}").format(
            rules=self.session.rules.name, done=done, total=total
        )
        self._refresh_if_shown()

    building = ""

    # Showing -------------------------------------------------------------------------

    def refresh_view(self) -> None:
        game = self.shown
        turn = game.turn
        dice = game.dice
        tray = self.placed()
        held = tray.flags() if turn is not None and turn.rolls_left else (False,) * 5
        self.query_one(DiceTray).show(tray.faces or None, held, self.compact)
        self.query_one(ScoreCard).show(game, self.win, self.past)
        self._count_down()
        self.query_one("#status", Static).update(self._status())
        self.query_one("#turn-info", Static).update(self._turn_info())
        mine = self._shown_human_turn()
        can_roll = mine and (turn is None or turn.rolls_left > 0) and not game.is_over
        self.query_one("#roll", Button).disabled = not can_roll
        self.query_one("#roll", Button).set_class(game.entered or not mine, "hidden")
        self.entry.set_class(not game.entered, "hidden")
        if game.entered:
            self.entry.show(str(dice) if dice is not None else "", self.entered_roll())
        hint = self.query_one("#hint", Static)
        hint.set_class(not self.show_hint, "hidden")
        if self.show_hint:
            hint.update(self._hint_text())
        self.refresh_bindings()  # undo comes and goes

    def _status(self) -> str:
        game = self.shown
        seat = game.current_player
        if seat is None:
            return _("Game over")
        name = game.players[seat]
        # Translators: a computer player's name in the status line
        who = _("{name} (computer)").format(name=name) if self.session.is_bot(seat) else name
        if game.phase is Phase.PLAYOFF:
            if game.entered:
                return _("Playoff for first place: {who} enters the five dice rolled").format(
                    who=who
                )
            return _("Playoff for first place: {who} rolls all five dice").format(who=who)
        turn = game.turn
        assert turn is not None
        # the status line's parts, set apart by dots
        parts = [
            _("Round {round}/{rounds}").format(round=turn.round, rounds=game.rules.rounds),
            _("to play: {who}").format(who=who),
        ]
        if self.best is not None:
            parts.append(_("best to beat: {best}").format(best=self.best))
        if game.rules.name != "official":
            parts.append(game.rules.name)
        if game.entered:
            parts.append(_("real dice"))
        return "  ·  ".join(parts)

    def _turn_info(self) -> str:
        game = self.shown
        turn = game.turn
        lines = []
        seat = game.current_player
        bot = game.players[seat] if seat is not None and self.session.is_bot(seat) else None
        if bot is not None:
            if self.bot_due is None:
                lines.append(_("{bot} is playing.").format(bot=bot))
        elif game.entered:
            lines.extend(self.entry_info())
        elif turn is not None:
            if turn.dice is None:
                lines.append(_("Press r (or space) to roll."))
            elif turn.rolls_left:
                lines.append(
                    _("Rolls left: {count}. Keep: 1-5 or click a die.").format(
                        count=turn.rolls_left
                    )
                )
                lines.append(_("Score: a box's key (on the card) or click it."))
            else:
                lines.append(_("No rolls left: score a box (its key, or click it)."))
        line = self.log_line
        offer = _(UNDO_OFFER)
        if line.endswith(offer) and not self.session.can_undo:
            line = line.removesuffix(offer)  # the next roll was made: no longer
        if line:
            lines.append(line)
        if bot is not None and self.bot_due is not None:  # it waits: u may take it back
            left = max(1, math.ceil(self.bot_due - clock()))
            # Translators: a computer player waits {left} seconds; s plays at once
            lines.append(_("{bot} plays in {left} s (s: now).").format(bot=bot, left=left))
        return "\n".join(lines)

    def _hint_text(self) -> str:
        if not self.session.hints_allowed:
            return _("Hints are off for this game.")
        situation = self.session.game.situation()
        if not self._human_turn() or situation is None:
            if self.session.game.entered:
                return _("Hints appear once your dice are entered.")
            return _("Hints appear once your dice are rolled.")
        advice = self.advice
        if advice is None or advice.situation != situation:
            if self.hint_pending != situation:
                self.hint_pending = situation
                self._think_hint()
            return self._thinking_text(_("The advisor is thinking..."))
        # an option to a line: in the narrow panel, the points lost alone before it
        if self.compact:
            # Translators: the hint's first line in the narrow side panel (at most 27
            # characters)
            title = _("Advisor (points lost):")
        else:
            # Translators: the hint's first line (at most 36 characters)
            title = _("Advisor (expected final total):")
        lines = [title]
        for option in advice.options[:HINT_OPTIONS]:
            loss = advice.best.value - option.value
            # Translators: the advisor's best option, in a column of 6 characters
            tag = f"-{decimal(loss, 2)}" if round(loss, 2) else _("best")
            value = "" if self.compact else f" {decimal(option.value, 1):>6}"
            lines.append(f"{value} {tag:>6}  {option.text}")
        turn = self.session.game.turn
        if turn is not None and turn.rolls_left and any(self.held):
            keep = self.placed().kept
            with contextlib.suppress(YahtzeeError):
                regret = advice.regret(keep)
                if round(regret, 2):
                    line = _("Your keep {dice} costs {points}").format(
                        dice=keep.spaced(), points=decimal(regret, 2)
                    )
                else:
                    line = _("Your keep {dice} is the best keep").format(dice=keep.spaced())
                lines.append(line)
        return "\n".join(lines)

    def _thinking_text(self, what: str) -> str:
        if self.session.solver_ready:
            return what
        return f"{what}\n{self.building or _('Loading the solver...')}"

    @work(group="hint")
    async def _think_hint(self) -> None:
        """The advisor's options, asked of the room in the background: keys keep working."""
        outcome = await self.play_quietly(commands.Hint())
        if isinstance(outcome, commands.Refused):
            self.notify(outcome.message, severity="warning")
            return
        if isinstance(outcome, commands.Advised):
            self.advice, self.hint_pending = outcome.advice, None
            if outcome.advice.situation == self.session.game.situation():
                self._refresh_if_shown()

    # The win-chance meter ----------------------------------------------------------

    def _show_meter(self, reading: MeterReading) -> None:
        """The meter as the room read it (after each placement; while its table is
        prepared, the estimate and how far the preparation got, looked at again)."""
        self.win = WinChances.of(reading)
        self.query_one(WinProgress).progress = reading.progress
        self.query_one(ScoreCard).show(self.shown, self.win, self.past)

    # Acting --------------------------------------------------------------------------

    def _human_turn(self) -> bool:
        """Whether a player at this keyboard is to decide (a bot's decision is the room's:
        keys that play wait for it)."""
        seat = self.session.game.current_player
        return seat is not None and not self.session.is_bot(seat)

    def _shown_human_turn(self) -> bool:
        seat = self.shown.current_player
        return seat is not None and not self.session.is_bot(seat)

    async def play_quietly(self, command: commands.Command) -> commands.Outcome:
        """Give ``command`` to the room (its refusal is the caller's to show); then the
        screen shows what follows it (a bot waiting for the player, say)."""
        outcome = await self.room.handle(command)
        if not self.over and self._shown():
            self.refresh_view()
        return outcome

    async def play(self, command: commands.Command) -> bool:
        """Give ``command`` to the room; its refusal shows as an error. Whether it was
        carried out."""
        outcome = await self.play_quietly(command)
        if isinstance(outcome, commands.Refused):
            self.notify(outcome.message, severity="error")
            return False
        return True

    async def action_keep_die(self, index: int) -> None:
        """Keep or release the die in place ``index`` (0-4, as the keys 1-5 say)."""
        turn = self.session.game.turn
        if not self._human_turn() or turn is None:
            return
        if turn.dice is None or not turn.rolls_left:  # say why the key does nothing now
            self.log_line = (
                _(
                    "Roll first (r or space); then 1-5 keep dice. (Die {number} is not rolled.)"
                ).format(number=index + 1)
                if turn.dice is None
                else _("No rolls left: dice are kept only to roll again. Score a box.")
            )
            self.refresh_view()
            return
        held = self.placed().held ^ {index}
        await self.play(commands.Hold(tuple(sorted(held))))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll":
            event.stop()
            await self.action_roll()

    async def on_die_clicked(self, event: Die.Clicked) -> None:
        await self.action_keep_die(event.index)

    async def action_roll(self) -> None:
        if self.session.game.entered:
            self.notify(_(NO_ROLL))
            return
        if not self._human_turn():
            return
        await self.play(commands.Roll(held=tuple(sorted(self.placed().held))))

    async def _score(self, category: Box) -> None:
        await self.play(commands.Score(category.key))

    async def action_score_key(self, key: str) -> None:
        """The box of ``key`` on this game's card (a key of another edition's card does
        nothing)."""
        boxes = {k: box for box, k in box_keys(self.session.rules.edition).items()}
        if key in boxes:
            await self.on_score_card_box_chosen(ScoreCard.BoxChosen(boxes[key]))

    async def action_undo(self) -> None:
        outcome = await self.play_quietly(commands.Undo())
        if isinstance(outcome, commands.Refused):  # the room's reason: off, too late, a bot's
            how = f" {_(UNDO_OFF_HOW)}" if outcome.code == "undo_off" else ""
            self.notify(f"{outcome.message}{how}", severity="warning")

    async def action_undo_refused(self) -> None:
        """``u`` when nothing can be taken back: say why (the room's reason)."""
        await self.action_undo()

    def highlighted_box(self) -> Box | None:
        return self.query_one(ScoreCard).box_at_cursor()

    def action_choose(self) -> None:
        table = self.query_one(ScoreCard)
        if table.row_count:
            table.action_select_cursor()

    async def on_score_card_box_chosen(self, event: ScoreCard.BoxChosen) -> None:
        if not self._human_turn():
            return
        if self.session.game.dice is None:
            if self.session.game.entered:
                self.notify(
                    _("Type the dice first (like 33356, then Enter), or w to write points.")
                )
            return
        option = self.session.placements().get(event.category)
        if option is not None and option.total == 0:
            confirmed = partial(self._confirmed, event.category)
            self.app.push_screen(ConfirmZero(event.category), confirmed)
            return
        await self._score(event.category)  # (the room says why a box is not allowed)

    async def _confirmed(self, category: Box, yes: bool | None) -> None:
        if yes:
            await self._score(category)

    def over_screen(self) -> Screen[None]:
        """The screen that follows the game's last placement."""
        from .over_screen import GameOverScreen  # noqa: PLC0415

        return GameOverScreen(self.session, self.book)

    def action_hint(self) -> None:
        if not self.session.hints_allowed:
            self.notify(_("Hints are off for this game."), severity="warning")
            return
        self.show_hint = not self.show_hint
        self.refresh_view()

    # What the room tells -------------------------------------------------------------

    def heard(self, table_id: str, event: RoomEvent) -> None:
        """An event of the game's room (never yields): a move is shown, with what it was
        in a line, and the meter as read; the game's end brings its screen."""
        if self.over or not self._shown():
            return
        if isinstance(event, MeterRead):
            self._show_meter(event.reading)
            return
        if not isinstance(event, Played):
            return
        for played in event.events:
            self._say(played, event.game)
        if event.game.is_over:
            self.over = True
            self.app.switch_screen(self.over_screen())
            return
        self.refresh_view()

    def _say(self, event: object, game: Game) -> None:
        """The line that tells a move (a player's roll is seen on the dice)."""
        player = getattr(event, "player", None)
        if player is None:
            return
        name, bot = game.players[player], self.session.is_bot(player)
        if isinstance(event, Scored):
            box, total = event.category.display_name, event.points + event.yahtzee_bonus
            if bot:
                # Translators: a computer player's move, as it plays
                line = _("{name} scores {points} in {box}.")
                self.log_line = line.format(name=name, points=total, box=box)
            else:
                again = _(UNDO_OFFER) if self.session.can_undo else ""
                self.entry.roll = None  # the next dice are the next player's
                said = _("{name} scored {points} in {box}.").format(
                    name=name, points=total, box=box
                )
                self.log_line = f"{said}{again}"
        elif isinstance(event, Written):
            self.entry.clear()
            self.entry.roll = None
            self.log_line = _("{name} wrote {points} in {box}.").format(
                name=name, points=event.points, box=event.category.display_name
            )
        elif isinstance(event, Undone):
            placed = game.event_log[-2] if len(game.event_log) > 1 else None
            if isinstance(placed, Scored | Written):
                self.log_line = _("Took back {box}: choose again.").format(
                    box=placed.category.display_name
                )
        elif isinstance(event, Rolled) and bot:
            keep = event.keep
            self.log_line = (
                _("{name} keeps {dice} and rolls.").format(name=name, dice=keep.spaced())
                if keep.faces
                else _("{name} rolls.").format(name=name)
            )

    # The bot's wait ------------------------------------------------------------------

    def _count_down(self) -> None:
        """While a bot waits for the player to go on (``s``) or take the placement back
        (``u``), the seconds left show, redrawn each second."""
        due = self.room.live.bot_due
        if due is None:
            self.bot_due = None
            if self.countdown is not None:
                self.countdown.stop()
                self.countdown = None
            return
        if self.bot_due is None:
            self.bot_due = clock() + (due - time.time())
        if self.countdown is None:
            self.countdown = self.set_interval(1.0, self._refresh_if_shown)

    async def action_skip(self) -> None:
        """The bot waiting for the player plays now."""
        await self.play(commands.GoOn())

    async def action_skip_pause(self) -> None:
        await self.action_skip()
