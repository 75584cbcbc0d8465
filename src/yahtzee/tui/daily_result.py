"""The daily game's result: your score, your skill (the points your choices lost to the
best ones), optimal play's score on the same dice, your days played and streak, and a
line to share without spoilers (no dice, no boxes).

They are worked out in the background (an async worker, each step in a thread): the
worker goes when the screen does, and each step found is drawn by the screen's own
message loop (`call_later`), which stops as soon as the screen starts to go: nothing is
drawn on a screen that is gone."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import date

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import WorkerCancelled, get_current_worker

from ..core import YahtzeeError
from ..core.language import N_, _, ngettext
from ..render.numbers import decimal
from ..service import GameSession
from ..service import daily as daily_games
from .widgets import ScoreCard
from .words import SpokenScreen, on_day

UNRANKED = N_(
    "Daily game: everyone playing it today gets the same dice, whatever they keep. "
    "Offline, the dice come from the date (anyone can work them out), so it cannot be "
    "ranked; the ranked daily game is on a server's page."
)
"""Said on the play screen of the daily game, and on its result."""
STEPS = 4
"""What the result waits for: the solver, the review, optimal play, the days played."""
COPIED = N_("Copied to the clipboard (where the terminal allows it; else select the line).")
NOT_YET = N_("The line to share comes once the review and optimal play are worked out.")


class DailyResultScreen(SpokenScreen[None]):
    """The end of the daily game. The review and optimal play's score on the same dice
    are worked out in the background (the solver loads first), showing how far."""

    BINDINGS = [
        Binding("c", "copy_share", N_("Copy result")),
        Binding("n", "app.new_game", N_("New game")),
        Binding("question_mark", "app.help", N_("Help")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, session: GameSession, day: date) -> None:
        super().__init__(id="daily-result")
        self.session = session
        self.day = day
        self.share: str | None = None  # the line to share, once worked out

    def compose(self) -> ComposeResult:
        total = self.session.game.cards[0].total
        title = _("Daily game of {day}: the result").format(day=on_day(self.day))
        yield Static(title, id="title")
        with VerticalScroll(id="daily-body"):
            yield Static(_("Your score: {points}").format(points=total), id="daily-score")
            yield Static(_("Your skill: reviewing every decision against the best..."),
                         id="daily-skill")  # fmt: skip
            yield Static(_("Optimal play on the same dice: to be worked out."),
                         id="daily-best")  # fmt: skip
            yield Static(_("Daily games played: counting..."), id="daily-days")
            yield Static(_("Working it out: loading the solver..."), id="daily-step")
            yield ProgressBar(STEPS, show_eta=False, id="daily-progress")
            yield Static(_("To share (c copies it, or select it with the mouse):"),
                         id="share-label")  # fmt: skip
            yield Static(_("(once worked out)"), id="share")
            yield Static(_(UNRANKED), id="daily-unranked")
            card = ScoreCard()
            card.cursor_type = "none"
            card.can_focus = False  # the keys scroll the whole page
            yield card
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one(ScoreCard).show(self.session.game)
        self.query_one("#daily-body").focus()
        self.work_out()

    # Worked out in the background -----------------------------------------------------

    @work(exclusive=True, group="daily-result", exit_on_error=False)
    async def work_out(self) -> None:
        """The solver (loaded, or built, with its progress), the review (recorded with
        the game), optimal play on the day's dice, then the days played and the streak."""
        session, day = self.session, self.day
        try:
            await asyncio.to_thread(session.solver, progress=self._solver_progress)
            self._step(1, _("Working it out: reviewing every decision against the best..."))
            # the review kept with the game's record, then the day's result
            await asyncio.to_thread(session.finish)
            result = await asyncio.to_thread(daily_games.daily_result, session, day)
            skill = _(
                "Your skill: {points} points lost to the best choices (the advisor's review)."
            ).format(points="-" if result.loss is None else decimal(result.loss, 1))
            self._show("#daily-skill", skill)
            self._step(2, _("Working it out: optimal play on the same dice..."))
            best = await asyncio.to_thread(daily_games.best_score, daily_games.offline_seed(day))
            self._show(
                "#daily-best", _("Optimal play on the same dice: {points}.").format(points=best)
            )
            self._step(3, _("Working it out: your days..."))
            found = await asyncio.to_thread(self._days_found, result.player)
            days = sorted({day, *(d for d, _name in found)})
            run_of = daily_games.streak(days, day)
            played = ngettext(
                "Daily games played: {count}; {days} day in a row.",
                "Daily games played: {count}; {days} days in a row.",
                run_of,
            ).format(count=len(days), days=run_of)
            self._show("#daily-days", played)
            self._later(self._shared, daily_games.share_line(result, best, run_of))
        except YahtzeeError as error:
            self._show(
                "#daily-step", _("Could not work the result out: {error}").format(error=error)
            )

    def _days_found(self, player: str) -> list[tuple[date, str]]:
        store = self.session.store
        return daily_games.offline_days(store, player) if store is not None else []

    def _later(self, show: Callable[..., None], *args: object) -> None:
        """Drawn by the screen's message loop (from the worker or its thread): never
        once the screen is going."""
        self.call_later(show, *args)

    def _solver_progress(self, done: int, total: int) -> None:
        """A table is being built (in the worker's thread): say how far it got, and stop
        if the screen went."""
        if get_current_worker().is_cancelled:
            raise WorkerCancelled
        rules = self.session.rules.name
        self._show(
            "#daily-step",
            _("Working it out: solving the {rules} rules, {done}/{total}").format(
                rules=rules, done=done, total=total
            ),
        )

    def _show(self, selector: str, text: str) -> None:
        self._later(self._update, selector, text)

    def _update(self, selector: str, text: str) -> None:
        self.query_one(selector, Static).update(text)

    def _step(self, done: int, what: str) -> None:
        self._later(self._stepped, done, what)

    def _stepped(self, done: int, what: str) -> None:
        self.query_one("#daily-progress", ProgressBar).update(progress=done)
        self._update("#daily-step", what)

    def _shared(self, line: str) -> None:
        self.share = line
        self.query_one("#share", Static).update(line)
        self.query_one("#daily-progress", ProgressBar).update(progress=STEPS)
        self.query_one("#daily-step").add_class("hidden")
        self.query_one("#daily-progress").add_class("hidden")
        self.refresh_bindings()

    # Keys -----------------------------------------------------------------------------

    def action_copy_share(self) -> None:
        if self.share is None:
            self.notify(_(NOT_YET), severity="warning")
            return
        self.app.copy_to_clipboard(self.share)
        self.notify(_(COPIED))


__all__ = ["UNRANKED", "DailyResultScreen"]
