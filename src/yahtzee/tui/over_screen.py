"""After the game: standings, every card, and the advisor's review of each human.

The review is made in the background (an async worker, its work in a thread): the worker
goes when the screen does, and what it found is drawn by the screen's own message loop
(`call_later`), which stops as soon as the screen starts to go (its widgets being
removed): nothing is drawn on a screen that is gone."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import DataTable, Footer, Static

from ..core import Action, Score, YahtzeeError
from ..core.language import N_, _, ngettext
from ..render.numbers import decimal, percent
from ..service import GameSession
from ..service.meter import POLL_S, play_notes
from ..service.sitting import Sitting
from ..store import history
from .sitting import SittingBook, print_pad, standings_lines
from .widgets import ScoreCard, row_name
from .words import SpokenScreen

if TYPE_CHECKING:
    from ..solver.review import PlayerReview

COSTLIEST = 3


def _rolls(n: int) -> str:
    if n == 0:
        return _("no rolls left")
    return ngettext("{count} roll left", "{count} rolls left", n).format(count=n)


class GameOverScreen(SpokenScreen[None]):
    BINDINGS = [
        Binding("n", "app.new_game", N_("New game")),
        # Translators: a key in the footer: the next game of the sitting (a rematch)
        Binding("r", "rematch", N_("Next game")),
        Binding("p", "print_pad", N_("Print pad")),
        Binding("question_mark", "app.help", N_("Help")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(self, session: GameSession, book: SittingBook | None = None) -> None:
        """``book``: the sitting the game belongs to (its standings show beside the
        game's once it has more than one game)."""
        super().__init__(id="over")
        self.session = session
        self.win_timer: Timer | None = None  # looks for the win tables while they build
        self.book = book or SittingBook()
        self.past = [game for _one, game in self.book.past(session)]
        self.sitting: Sitting | None
        try:
            self.sitting = self.book.finished(session)
        except YahtzeeError:  # not readable: the game's result shows alone
            self.sitting = None

    def compose(self) -> ComposeResult:
        lines = [_("Game over"), *self._result()]
        if self.session.humans:
            lines.append("  " + _("The advisor's review is below the card: arrows or PgDn scroll."))
        with VerticalScroll(id="over-body"):
            sitting = self.sitting
            if sitting is not None and len(sitting.games) > 1:
                with Horizontal(id="results"):
                    yield Static("\n".join(lines), id="standings")
                    yield Static("\n".join(standings_lines(sitting)), id="sitting")
            else:
                yield Static("\n".join(lines), id="standings")
            card = ScoreCard()
            card.cursor_type = "none"
            card.can_focus = False  # the keys scroll the whole page, review included
            yield card
            if self.session.humans:
                yield Static(_("Reviewing the game: every decision against the best..."),
                             id="reviewing")  # fmt: skip
        yield Footer(show_command_palette=False)

    def _result(self) -> list[str]:
        """A solo game's final score (and the player's best before it); else the
        standings, with the winner or winners marked."""
        game = self.session.game
        standings = game.standings()
        if len(standings) == 1:
            total = standings[0].total
            lines = ["  " + _("Final score: {points}").format(points=total)]
            before = self._best_before()
            if before is not None:
                if total > before:
                    best = _("Your best before this game: {points}. A new best!")
                else:
                    best = _("Your best before this game: {points}.")
                lines.append("  " + best.format(points=before))
            return lines
        lines = []
        for s in standings:
            # Translators: after the winner's total in the standings
            mark = "  " + _("winner") if s.winner else ""
            lines.append(f"  {s.place}. {s.name}: {s.total}{mark}")
        if len(game.winners) > 1:
            lines.append("  " + _("A shared win."))
        return lines

    def _best_before(self) -> int | None:
        """A solo human's best total in the other finished games on record."""
        session, store = self.session, self.session.store
        if store is None or session.is_bot(0):
            return None
        name = session.seats[0].name
        totals = [
            g.totals[g.players.index(name)]
            for g in history(store, player=name, status="finished")
            if g.id != session.game_id and name in g.players
        ]
        known = [t for t in totals if t is not None]
        return max(known) if known else None

    def action_rematch(self) -> None:
        """The next game of the sitting: the same seats, rules and dice, a new game."""
        self.app.action_new_game()  # type: ignore[attr-defined]
        self.app.open_session(self.session.rematch())  # type: ignore[attr-defined]

    def action_print_pad(self) -> None:
        """The sitting's pad, this game its last column, to print."""
        print_pad(self, self.book, self.session)

    def on_mount(self) -> None:
        self.query_one(ScoreCard).show(self.session.game, past=self.past)
        self.query_one("#over-body").focus()
        if self.session.humans:
            self._review(record=True)

    @work(group="review", exclusive=True)
    async def _review(self, *, record: bool = False) -> None:
        """Review the game in the background (it may load the solver first), and
        ``record`` it (the review kept with the game's record); again, once the win
        tables are loaded, for its win column."""
        session = self.session
        if record:
            await asyncio.to_thread(session.finish)
        try:
            reviews = await asyncio.to_thread(session.review)
        except YahtzeeError as error:  # no advisor for these rules: the card stays
            self.call_later(self._no_review, str(error))
            return
        self.call_later(self._show_reviews, reviews)  # (not once the screen is going)

    def _no_review(self, why: str) -> None:
        for shown in self.query("#reviewing").results(Static):
            shown.update(_("No review of this game: {why}").format(why=why))

    def _look_for_win_tables(self) -> None:
        if self.session.review_has_win():
            self._stop_looking()
            self._review()
        elif not self.session.win_tables_building():
            self._stop_looking()  # no build under way: the review stays as it is

    def _stop_looking(self) -> None:
        if self.win_timer is not None:
            self.win_timer.stop()
            self.win_timer = None

    def _show_reviews(self, reviews: list[PlayerReview]) -> None:
        body = self.query_one("#over-body", VerticalScroll)
        for shown in self.query("#reviewing, .review, .decisions"):
            shown.remove()
        session = self.session
        building = session.win_tables_building()  # (the target table may come after)
        rivals = len(session.game.players) > 1
        if rivals and building and not session.review_has_win() and self.win_timer is None:
            self.win_timer = self.set_interval(POLL_S, self._look_for_win_tables)
        for note in play_notes(self.session):
            body.mount(Static(note, classes="review"))
        for review in reviews:
            body.mount(Static(_summary(review), classes="review"))
            table: DataTable[str] = DataTable(classes="decisions", cursor_type="none")
            table.can_focus = False  # every row shows: the page scrolls
            swings = any(d.win_swing is not None for d in review.decisions)
            # Translators: the review table's column heads (short: the table fits 80
            # columns): the round, the dice, the rolls left, the choice made, the best
            # choice, the points lost, the chance to win given up
            table.add_columns(_("Round"), _("Dice"), _("Rolls"), _("Chosen"), _("Best"), _("Lost"))
            if swings:  # against others: the chance to finish first given up, too
                table.add_column(_("Win"))
            for d in review.decisions:
                cells = [
                    str(d.round),
                    d.situation.dice.spaced(),
                    str(d.situation.rolls_left),
                    short_text(d.action),
                    short_text(d.best),
                    decimal(d.loss, 2),
                ]
                if swings:
                    cells.append(swing_text(d.win_swing))
                table.add_row(*cells)
            body.mount(table)


def short_text(action: Action) -> str:
    """An action as the review's table words it: the card's short box names ("score 3 of
    a kind"), so that the table fits 80 columns with the win column beside it."""
    if isinstance(action, Score):
        # Translators: a decision in the review's table (the card's short box name)
        return _("score {box}").format(box=row_name(action.category))
    return _("keep {dice}").format(dice=action.spaced())


def swing_text(swing: float | None) -> str:
    """The chance to finish first a decision gave up, in percent ("-3.1%"); "best" for
    the best choice to win (to a tenth of a percent); blank when not known."""
    if swing is None:
        return ""
    points = round(max(0.0, swing) * 100, 1)
    # Translators: the best choice to win, in the review's Win column (short)
    return f"-{percent(points / 100, 1)}" if points else _("best")


def _swing_words(swing: float | None) -> str:
    """Beside a decision's points lost: the chance to win it gave up, if known."""
    if swing is None:
        return ""
    if not round(max(0.0, swing) * 100, 1):
        return " " + _("(the best to win)")
    # Translators: the chance to win a decision gave up ("-3.1%")
    return " " + _("({chance} win)").format(chance=swing_text(swing))


def _summary(review: PlayerReview) -> str:
    """The review's total and its costliest moments, two short lines each (they fit 80
    columns without wrapping)."""
    costly = review.costliest(COSTLIEST)
    count = len(review.decisions)
    text = [
        ngettext(
            "{name}: expected points lost {points} over {count} decision",
            "{name}: expected points lost {points} over {count} decisions",
            count,
        ).format(name=review.name, points=decimal(review.total_loss, 1), count=count)
    ]
    for d in costly:
        # Translators: {rolls} is "2 rolls left" or "no rolls left"; {swing}, where
        # known, the chance to win given up (" (-3.1% win)")
        moment = _("Round {round}, {dice} with {rolls}: lost {points}{swing}").format(
            round=d.round,
            dice=d.situation.dice.spaced(),
            rolls=_rolls(d.situation.rolls_left),
            points=decimal(d.loss, 2),
            swing=_swing_words(d.win_swing),
        )
        text.append("  " + moment)
        # Translators: the choice made and the best one, in the advisor's words
        text.append(
            "    " + _("chose {chosen}; best {best}").format(chosen=d.text, best=d.best_text)
        )
    if not costly:
        text.append("  " + _("every decision was optimal."))
    return "\n".join(text)
