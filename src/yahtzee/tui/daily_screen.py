"""The daily game in the terminal: today's (UTC) game on the date's own duplicate dice,
one player, no bots, no hints, no undo. Offline, the dice come from the date alone (anyone
can work them out), so it is not ranked and says so; the ranked daily is a server's."""

from __future__ import annotations

from datetime import date

from textual.screen import Screen
from textual.widgets import Static

from ..core.language import _
from ..service import GameSession
from ..service.daily import DAILY_RULES, is_offline_daily
from ..store import Store
from .daily_result import UNRANKED, DailyResultScreen
from .play_screen import PlayScreen
from .words import on_day


def daily_day_of(store: Store, game_id: str) -> date | None:
    """The day of a recorded game that is an offline daily game (one player, the
    official rules, committed to that day's own seed); None for any other game."""
    summary = store.summary(game_id)
    if summary.rules != DAILY_RULES or len(summary.players) != 1:
        return None
    day = summary.created_at.date()
    return day if is_offline_daily(store.event_log(game_id)[:1], day) else None


class DailyPlayScreen(PlayScreen):
    """The play screen of the daily game: its day in the status line, the note that it
    is not ranked, and its result screen at the end."""

    def __init__(self, session: GameSession, day: date, *, resumed: bool = False) -> None:
        """``resumed``: the daily game stopped earlier goes on (it says so)."""
        super().__init__(session, bot_pause=0)
        self.day = day
        self.resumed = resumed

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#side").mount(Static(_(UNRANKED), id="daily-note"))
        if self.resumed:
            self.notify(
                _("Your daily game of {day} goes on where you stopped.").format(
                    day=on_day(self.day)
                ),
                timeout=6,
            )

    def _status(self) -> str:
        # Translators: the start of the daily game's status line ({day}: its date)
        daily = _("Daily {day}").format(day=on_day(self.day))
        return f"{daily}  ·  {super()._status()}"

    def over_screen(self) -> Screen[None]:
        return DailyResultScreen(self.session, self.day)


__all__ = ["UNRANKED", "DailyPlayScreen", "daily_day_of"]
