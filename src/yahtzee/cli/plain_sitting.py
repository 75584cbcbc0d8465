"""Plain mode's sitting: the games the same players play one after the other, like the
columns of a paper pad. Each game's end shows its standings and, from the second game on,
the sitting's (total, games won) and its columns (each game's points and the running
total); ``next`` starts the sitting's next game (`GameSession.rematch`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core import Game
from ..core.language import _, ngettext
from ..service import GameSession
from ..service.sitting import Sitting, running_totals, sitting_from, sitting_of
from ..store import tables as records
from .plain import PlainGame

if TYPE_CHECKING:
    from ..service.sitting import SittingStanding

NEXT = frozenset({"next", "rematch"})
STOP = frozenset({"quit", "exit", "q", "stop"})
COLUMN = 13


class PlainSitting:
    """Plays games of one sitting in plain mode until the players stop."""

    def __init__(
        self,
        session: GameSession,
        read: Callable[[str], str | None],
        write: Callable[[str], None],
        *,
        seed: int | str | None = None,
    ) -> None:
        self.session, self.read, self.write, self.seed = session, read, write, seed
        self._in_memory: list[tuple[str, Game]] = []  # a sitting that is not recorded

    def play(self, *, resumed: bool = False) -> None:
        """Game after game until one is stopped, or the players do not go on."""
        if resumed:
            self._say_resumed()
        while True:
            if not PlainGame(self.session, self.read, self.write).play(resumed=resumed):
                return
            sitting = self._finish()
            if not self._wants_next(len(sitting.games) + 1):
                return
            number = len(sitting.games) + 1
            seed = None if self.seed is None else f"{self.seed}-{number}"
            self.session = self.session.rematch(seed=seed)
            resumed = False
            self.write("")
            if sitting.id:
                line = _("Game {number} of sitting {sitting}.")
            else:
                line = _("Game {number} of this sitting.")
            self.write(line.format(number=number, sitting=sitting.id[:8]))

    def _say_resumed(self) -> None:
        session = self.session
        if session.store is None or session.game_id is None or session.sitting is None:
            return
        games = records.sitting_games(session.store, session.sitting)
        if len(games) > 1 and session.game_id in games:
            number = games.index(session.game_id) + 1
            self.write(
                _("Resumed game {game}: game {number} of sitting {sitting}.").format(
                    game=session.game_id[:8], number=number, sitting=session.sitting[:8]
                )
            )

    def _sitting(self) -> Sitting:
        session = self.session
        if session.store is not None and session.sitting is not None:
            return sitting_of(session.store, session.sitting)
        self._in_memory.append((str(len(self._in_memory) + 1), session.game))
        return sitting_from("", self._in_memory)

    def _finish(self) -> Sitting:
        """The game's standings, then (from its second game on) the sitting's."""
        game = self.game
        self.write("")
        self.write(_("Game over."))
        if len(game.players) == 1:  # a solo game has a score, not a winner
            self.write("  " + _("Final score: {total}").format(total=game.cards[0].total))
        else:
            for standing in game.standings():
                mark = "  " + _("(winner)") if standing.winner else ""
                self.write(f"  {standing.place}. {standing.name}: {standing.total}{mark}")
        sitting = self._sitting()
        if len(sitting.games) > 1:
            self._show_sitting(sitting)
        return sitting

    @property
    def game(self) -> Game:
        return self.session.game

    def _show_sitting(self, sitting: Sitting) -> None:
        count = len(sitting.games)
        if sitting.id:
            after = ngettext(
                "Sitting {sitting} after {n} game:", "Sitting {sitting} after {n} games:", count
            )
        else:
            after = ngettext("This sitting after {n} game:", "This sitting after {n} games:", count)
        self.write(after.format(sitting=sitting.id[:8], n=count))
        solo = len(sitting.standings) == 1  # one player: a total, no games won
        for place, standing in _places(sitting.standings):
            won = ngettext(", {n} game won", ", {n} games won", standing.won)
            tally = "" if solo else won.format(n=standing.won)
            self.write(f"  {place}. {standing.name}: {standing.total}{tally}")
        self.write("  " + _("The columns (each game's points, then the running total):"))
        width = max(len(s.name) for s in sitting.standings) + 2
        # Translators: a column's head in a sitting's table: "Game 2"
        head = _("Game {number}")
        heads = "".join(f"{head.format(number=i + 1):>{COLUMN}}" for i in range(count))
        self.write(f"  {'':<{width}}{heads}")
        running = running_totals(sitting)
        for standing in sitting.standings:
            seat = standing.seat
            cells = "".join(
                f"{f'{g.totals[seat]} / {r[seat]}':>{COLUMN}}"
                for g, r in zip(sitting.games, running, strict=True)
            )
            self.write(f"  {standing.name:<{width}}{cells}")

    def _wants_next(self, number: int) -> bool:
        """``next`` starts the sitting's next game; ``quit`` (or the end of the input) stops."""
        self.write(
            _("Type 'next' for game {number} of this sitting, or 'quit' to stop.").format(
                number=number
            )
        )
        while True:
            line = self.read(_("next or quit> "))
            if line is None:
                return False
            answer = line.strip().lower()
            if answer in NEXT:
                return True
            if answer in STOP:
                return False
            self.write(_("The game is over: type 'next' for the sitting's next game, or 'quit'."))


def _places(standings: tuple[SittingStanding, ...]) -> list[tuple[int, SittingStanding]]:
    """The sitting's standings, best total first; equal totals share a place."""
    order = sorted(standings, key=lambda s: (-s.total, s.seat))
    placed: list[tuple[int, SittingStanding]] = []
    for index, standing in enumerate(order):
        same = bool(placed) and placed[-1][1].total == standing.total
        placed.append((placed[-1][0] if same else index + 1, standing))
    return placed
