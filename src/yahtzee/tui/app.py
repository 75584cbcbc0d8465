"""The terminal game (Textual): ``yahtzee`` with no arguments."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Sequence

from textual.app import App
from textual.binding import Binding
from textual.logging import TextualHandler

from ..core import InvalidInput, RuleSet, YahtzeeError
from ..core.language import N_, _
from ..service import GameSession
from ..service import daily as daily_games
from ..store import Seat, Store, progress_of, stats, unfinished
from .daily_screen import DailyPlayScreen, daily_day_of
from .help_screen import HelpScreen
from .play_screen import UNDO_WAIT_S, PlayScreen
from .records_screen import HistoryScreen, StatsScreen
from .setup_screen import NewGameScreen, ResumeScreen
from .sitting import SittingBook
from .threads import DaemonThreads

LOG = logging.getLogger("yahtzee")
BASE_SCREENS = 2
"""Textual's default screen and the new-game screen: the bottom of the stack."""
NO_RECORDS = N_("Nothing is recorded in this session (--no-record): no history or statistics.")


class YahtzeeApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "Yahtzee"
    BINDINGS = [Binding("ctrl+q", "quit", N_("Quit"), show=False)]

    def __init__(
        self,
        store: Store | None = None,
        *,
        seed: int | None = None,
        bot_pause: float = 0.6,
        dark: bool = True,
        offer_resume: bool = True,
        rules: RuleSet | None = None,
        seats: Sequence[Seat] = (),
        resume: str | None = None,
        entered: bool = False,
        undo: bool | None = None,
        undo_wait: float = UNDO_WAIT_S,
    ) -> None:
        """``rules`` preselects a rule set on the new-game screen; ``seats`` start a game
        with them at once; ``resume`` (a game id, or the start of one) goes on with that
        recorded game at once; ``entered``: real dice preselected (the players roll them
        at the table and enter them; a game of ``seats`` started so); ``undo``: whether
        players may take back a placement (``None``: as the game decides; preselected on
        the new-game screen); ``undo_wait``: seconds a bot waits while the placement before
        its turn may still be taken back."""
        super().__init__()
        self._logged_before: list[logging.Handler] = []
        self.undo = undo
        self.undo_wait = undo_wait
        self.store = store
        self.seed = seed
        self.rules = rules or RuleSet.official()
        self.start_seats = tuple(seats)
        self.resume_id = resume
        self.bot_pause = bot_pause
        self.offer_resume = offer_resume
        self.session: GameSession | None = None
        self.entered = entered
        self.book = SittingBook()  # the sitting being played (one game, or its rematches)
        self.theme = "textual-dark" if dark else "textual-light"

    def on_mount(self) -> None:
        # while the game is on the screen the library's log (a failed meter reading, say)
        # goes to Textual's (`textual console` shows it), never over the screen
        handler = TextualHandler()
        handler.setFormatter(logging.Formatter("yahtzee: %(message)s"))
        self._logged_before, LOG.handlers = LOG.handlers[:], [handler]
        # background work on daemon threads: quitting never waits for it (see .threads)
        asyncio.get_running_loop().set_default_executor(DaemonThreads())
        # the solver gets ready while the player sets up a game: the first hint is quick
        self.run_worker(asyncio.to_thread(_warm_up), group="warm-up", exclusive=True)
        self.push_screen(
            NewGameScreen(self.rules, id="new-game", entered=self.entered, undo=self.undo)
        )
        if self.resume_id is not None and self.store is not None:
            self.resume_game(self.store.resolve(self.resume_id))
            return
        if self.start_seats:
            try:
                self.start_game(
                    self.start_seats, self.rules, None, True, undo=self.undo, entered=self.entered
                )
            except YahtzeeError as error:  # a bot in a game of real dice, say
                self.notify(str(error), severity="error")
            return
        waiting = unfinished(self.store) if self.store and self.offer_resume else []
        if waiting and self.store is not None:
            latest = waiting[0]
            found = progress_of(self.store, latest.id)
            reached = "" if found is None else found.stage  # unreadable: offered, not described
            self.push_screen(
                ResumeScreen(latest, len(waiting), reached),
                lambda answer: self._after_offer(answer, latest.id),
            )

    def on_unmount(self) -> None:
        LOG.handlers = self._logged_before

    def _after_offer(self, answer: str | None, latest: str) -> None:
        if answer == "resume":
            self.resume_game(latest)
        elif answer == "history":
            self.action_history()

    def resume_game(self, game_id: str) -> None:
        """Go on with a recorded game (its full id) where it stopped."""
        assert self.store is not None
        self.book.start()
        day = daily_day_of(self.store, game_id)
        if day is not None:  # a daily game stays one: no hints, no undo, its result screen
            session = GameSession.resume(self.store, game_id, hints=False, undo=False)
            self.session = session
            self.push_screen(DailyPlayScreen(session, day, resumed=True))
            return
        self.open_session(GameSession.resume(self.store, game_id, seed=self.seed, undo=self.undo))

    def start_daily(self, name: str) -> None:
        """Today's (UTC) daily game for ``name``, on the date's own duplicate dice: a new
        one, or the one stopped today goes on; one finished today is refused (the
        service's sentence, `IllegalMove` ``daily_played``). Not ranked: offline, anyone
        can work the dice out from the date."""
        day = daily_games.today()
        session = daily_games.start_offline_daily(self.store, name, day)
        self.book.start()
        self.session = session
        self.push_screen(DailyPlayScreen(session, day, resumed=len(session.game.events) > 1))

    def start_game(
        self,
        seats: Sequence[Seat],
        rules: RuleSet,
        seed: int | None,
        hints: bool,
        *,
        undo: bool | None = None,
        entered: bool = False,
    ) -> None:
        """A new game, a new sitting; ``undo``: whether players may take back a placement
        (``None``: only in a game of one player, or of real dice); ``entered``: the players
        roll real dice and enter them (people only: a bot seat is refused, saying so)."""
        names = [s.name for s in seats]
        if len({n.casefold() for n in names}) != len(names):
            raise InvalidInput(_("Two seats have the same name; give each a different name."))
        seed = self.seed if seed is None else seed
        session = GameSession.new(
            seats, rules, store=self.store, seed=seed, hints=hints, undo=undo, entered=entered
        )
        self.book.start()
        self.open_session(session)

    def open_session(self, session: GameSession) -> None:
        self.session = session
        best = None
        if self.store is not None and len(session.seats) == 1 and not session.is_bot(0):
            mine = stats(self.store, session.seats[0].name)
            best = mine[0].best if mine else None
        self.push_screen(PlayScreen(session, self.bot_pause, best, self.book, self.undo_wait))

    def action_new_game(self) -> None:
        while len(self.screen_stack) > BASE_SCREENS:
            self.pop_screen()

    def action_help(self) -> None:
        rules = self.session.game.rules if self.session else RuleSet.official()
        self.push_screen(HelpScreen(rules))

    def action_history(self) -> None:
        if self.store is None:
            self.notify(_(NO_RECORDS), severity="warning")
        else:
            self.push_screen(HistoryScreen(self.store))

    def action_stats(self) -> None:
        if self.store is None:
            self.notify(_(NO_RECORDS), severity="warning")
        else:
            self.push_screen(StatsScreen(self.store))

    def action_toggle_dark(self) -> None:
        self.theme = "textual-light" if self.theme == "textual-dark" else "textual-dark"


def _warm_up() -> None:
    from ..solver import cached_solver  # noqa: PLC0415

    cached_solver(RuleSet.official())


def run(
    database_url: str | None = None,
    seed: int | None = None,
    light: bool = False,
    *,
    rules: RuleSet | None = None,
    seats: Sequence[Seat] = (),
    record: bool = True,
    resume: str | None = None,
    entered: bool = False,
    undo: bool | None = None,
) -> None:
    """The terminal game. ``record=False`` keeps nothing (no database is opened); see
    `YahtzeeApp` for ``rules``, ``seats``, ``resume``, ``entered`` (real dice) and
    ``undo``."""
    options = {"seed": seed, "dark": not light, "rules": rules, "seats": seats}
    options.update(entered=entered, undo=undo)
    if not record:
        YahtzeeApp(None, offer_resume=False, **options).run()  # type: ignore[arg-type]
    else:
        with Store(database_url) as store:
            YahtzeeApp(store, resume=resume, **options).run()  # type: ignore[arg-type]
    if threading.active_count() > 1:
        # Quitting cancels the work still going on in the background (a table being
        # solved, say): every action is already saved, so nothing waits for it.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
