"""History and statistics from the records."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ..store import Store, history, stats


class HistoryScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, store: Store) -> None:
        super().__init__(id="history")
        self.store = store

    def compose(self) -> ComposeResult:
        yield Static("Past games", id="title")
        table: DataTable[str] = DataTable(cursor_type="row")
        table.add_columns("Game", "Started", "Rules", "Players and totals", "Status")
        for g in history(self.store, limit=200):
            totals = ", ".join(
                f"{p} {'-' if t is None else t}"
                for p, t in zip(g.players, g.totals or (None,) * len(g.players), strict=False)
            )
            status = "won by " + " and ".join(g.winners) if g.winners else g.status
            table.add_row(g.id[:8], f"{g.created_at:%Y-%m-%d %H:%M}", g.rules, totals, status)
        yield table
        yield Footer()


class StatsScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, store: Store) -> None:
        super().__init__(id="stats")
        self.store = store

    def compose(self) -> ComposeResult:
        yield Static("Statistics per player (finished games)", id="title")
        table: DataTable[str] = DataTable(cursor_type="row")
        table.add_columns(
            "Player", "Games", "Wins", "Average", "Best", "Upper bonus", "Yahtzee", "Loss/decision"
        )
        for s in stats(self.store):
            loss = "-" if s.loss_per_decision is None else f"{s.loss_per_decision:.2f}"
            table.add_row(
                s.player,
                str(s.games),
                str(s.wins),
                f"{s.average:.1f}",
                str(s.best),
                f"{s.upper_bonus_rate:.0%}",
                f"{s.yahtzee_rate:.0%}",
                loss,
            )
        yield table
        yield Footer()
