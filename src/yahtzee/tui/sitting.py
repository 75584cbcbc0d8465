"""The sitting being played in the terminal game: the games the same players played one
after the other ("Next game" at the end of each), like the columns of a paper pad.

A recorded sitting is read from the records (`service.sitting`); a game not recorded
(``--no-record``) keeps its sitting's finished games here, in memory, until a new game is
set up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.screen import Screen

from ..core import Game, InvalidInput, YahtzeeError
from ..core.language import _, ngettext
from ..render.pad_html import MAX_PAD_GAMES
from ..service import GameSession
from ..service.sitting import Sitting, finished_games, sitting_from, sitting_of
from .printing import PRINT_IT, write_pad, written_note

UNRECORDED = "this sitting"
"""The id of a sitting that is not recorded (its games are kept in memory only)."""


@dataclass
class SittingBook:
    """The finished games of the sitting in progress, for games not recorded."""

    games: list[tuple[str, Game]] = field(default_factory=list)

    def start(self) -> None:
        """A new sitting (a game set up anew, or a recorded one resumed)."""
        self.games.clear()

    def past(self, session: GameSession) -> list[tuple[str, Game]]:
        """The sitting's finished games before ``session``'s game, in order."""
        if _recorded(session):
            assert session.store is not None and session.sitting is not None
            try:
                found = finished_games(session.store, session.sitting)
            except InvalidInput:  # no finished game yet
                return []
            return [(one, game) for one, game in found if one != session.game_id]
        return [(one, game) for one, game in self.games if game is not session.game]

    def finished(self, session: GameSession) -> Sitting:
        """The sitting with ``session``'s finished game in it (kept here if not
        recorded): its games' totals and the standings across them."""
        if _recorded(session):
            assert session.store is not None and session.sitting is not None
            return sitting_of(session.store, session.sitting)
        if session.game.is_over and all(game is not session.game for _, game in self.games):
            self.games.append((f"game {len(self.games) + 1}", session.game))
        return sitting_from(UNRECORDED, self.games)

    def pad_games(self, session: GameSession) -> list[Game]:
        """The games a printed pad shows: the sitting's last ones, this one included
        (finished or not), at most as many as a pad has columns per player."""
        games = [game for _, game in self.past(session)]
        return [*games, session.game][-MAX_PAD_GAMES:]


def print_pad(screen: Screen[Any], book: SittingBook, session: GameSession) -> None:
    """Write the sitting's pad so far (``session``'s game its last column) to print, and
    say where it went."""
    try:
        path = write_pad(book.pad_games(session), session.sitting or "sitting")
    except (OSError, YahtzeeError) as error:
        screen.notify(_("Could not write the pad: {error}").format(error=error), severity="error")
        return
    note = written_note(_("Pad written to"), path, screen.app.size.width, _(PRINT_IT))
    screen.notify(note, timeout=10)


def _recorded(session: GameSession) -> bool:
    return session.store is not None and session.sitting is not None


def standings_lines(sitting: Sitting) -> list[str]:
    """The sitting's standings as the game-over screen shows them: each player's total
    across its games and the games they won, the leader first."""
    count = len(sitting.games)
    lines = [
        ngettext("The sitting, {count} game:", "The sitting, {count} games:", count).format(
            count=count
        )
    ]
    ranked = sorted(sitting.standings, key=lambda s: (-s.total, -s.won, s.seat))
    for place, s in enumerate(ranked, 1):
        # Translators: a player's place, name, total across the sitting and games won
        won = ngettext(
            "{place}. {name}: {points} ({count} won)",
            "{place}. {name}: {points} ({count} won)",
            s.won,
        )
        lines.append("  " + won.format(place=place, name=s.name, points=s.total, count=s.won))
    return lines


__all__ = ["UNRECORDED", "SittingBook", "print_pad", "standings_lines"]
