"""The win-chance meter's part of a game session (`GameSession` is one): each seat's
chance to finish first, read from the score-curve tables once they are loaded, asked for
(loaded or built in the background) the first time, and the reading every face shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core import Game, Scorecard
    from ..solver.curve_build import Kind
    from ..store import Seat, Store


class SessionWinMeter:
    """The meter's methods of `GameSession`, on its game, seats and records."""

    game: Game
    seats: list[Seat]
    store: Store | None
    _best: list[int | None]

    def win_chances(self, cards: tuple[Scorecard, ...] | None = None) -> list[float] | None:
        """Each seat's chance to finish first if everyone plays for the most expected points
        from here, ties shared; alone, the chance to beat the player's best finished score
        under these rules (``None`` without one). ``None`` while the table that answers is
        not loaded: it is then loaded (or built) in the background, see
        `win_meter_progress`. ``cards``: the game's as they were at some moment (the
        game's now by default), for a reading made while the game goes on."""
        from ..solver.curve_table import cached_table  # noqa: PLC0415
        from ..solver.winning import beat_chance, win_chances  # noqa: PLC0415

        cards = self.game.cards if cards is None else cards
        self._request_meter_tables()
        if not self.win_meter_ready():
            return None
        table = cached_table("distribution", self.game.rules)
        if len(cards) > 1:
            return win_chances(cards, table)
        best = self.best_score()
        return None if best is None else [beat_chance(cards[0], best, table)]

    def win_meter_ready(self) -> bool:
        """Whether the meter's table is loaded (until then `win_chances` has nothing
        to work out: it only asks for the table, see `request_win_meter`)."""
        from ..solver.curve_table import table_loaded  # noqa: PLC0415

        return table_loaded("distribution", self.game.rules)

    def request_win_meter(self) -> tuple[int, int] | None:
        """Ask for the meter's tables (loaded or built in the background, once) and say
        how far they are, as `win_meter_progress` (quick: no table is read)."""
        self._request_meter_tables()
        return self.win_meter_progress()

    def _request_meter_tables(self) -> None:
        from ..solver.curve_table import CurveTable  # noqa: PLC0415
        from ..solver.winning import request_tables  # noqa: PLC0415

        # against others, the target table too: the review's swing in win chance needs it
        kinds: tuple[Kind, ...] = ("distribution", "target")
        if len(self.game.cards) == 1:
            # alone, there is no one to beat but the player's best: no table is built for
            # that (minutes, and a build that a solo game would name for nothing); one
            # already on disk is loaded, else the chance is the shipped estimate
            kinds = ("distribution",)
            if not CurveTable.path_for("distribution", self.game.rules).is_file():
                return
        request_tables(self.game.rules, kinds)  # nothing to do once loaded (or being loaded)

    def win_meter_progress(self) -> tuple[int, int] | None:
        """``(done, total)`` while the meter's table is being built for a game against
        others, else ``None`` (a solo game builds none)."""
        from ..solver.winning import table_progress  # noqa: PLC0415

        if len(self.game.cards) == 1:
            return None
        return table_progress(self.game.rules, "distribution")

    def win_tables_building(self) -> bool:
        """Whether a table the review's win column needs (either kind) is being built."""
        from ..solver.winning import table_progress  # noqa: PLC0415

        kinds: tuple[Kind, ...] = ("distribution", "target")
        return any(table_progress(self.game.rules, kind) is not None for kind in kinds)

    def best_score(self) -> int | None:
        """The solo player's best finished score under these rules (None without one)."""
        if self.store is None:
            return None
        if not self._best:
            from ..store.queries import best_total  # noqa: PLC0415

            self._best.append(best_total(self.store, self.seats[0].name, self.game.rules.name))
        return self._best[0]


__all__ = ["SessionWinMeter"]
