"""History (the way back into any recorded game) and statistics from the records."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ..core import YahtzeeError
from ..store import GameSummary, Store, history, progress_of, stats, unfinished
from .printing import PRINT_IT, SHORT_ID, write_card, written_note
from .replay_screen import ReplayScreen

FINISHED_SHOWN = 200
"""How many finished games the history lists (every unfinished one is listed)."""


class OpenTable(DataTable[Text]):
    """A table of rows to open: Enter or a single click opens the row."""

    BINDINGS = [Binding("enter", "select_cursor", "Open", key_display="⏎")]

    def on_click(self, event: events.Click) -> None:
        """Runs before the table's own click handling, which selects a row clicked under
        the cursor: moving the cursor there first makes the first click open it."""
        row, column = event.style.meta.get("row"), event.style.meta.get("column")
        if isinstance(row, int) and isinstance(column, int) and row >= 0 and column >= 0:
            self.cursor_coordinate = Coordinate(row, column)


class HistoryScreen(Screen[None]):
    """Every recorded game, unfinished ones first: Enter resumes an unfinished game and
    replays a finished one turn by turn; ``c`` prints the highlighted game's card."""

    BINDINGS = [
        Binding("c", "print_card", "Print card"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__(id="history")
        self.store = store
        self.waiting = unfinished(store)
        self.done = history(store, status="finished", limit=FINISHED_SHOWN)
        self.status = {s.id: s.status for s in (*self.waiting, *self.done)}

    def compose(self) -> ComposeResult:
        yield Static("History: unfinished games first", id="title")
        yield Static(
            "Enter or a click resumes an unfinished game or replays a finished one; "
            "c prints its scorecard.",
            id="history-help",
        )
        table = OpenTable(cursor_type="row", id="games")
        table.add_columns("Status", "Last played", "Players (score)", "Rules", "Game")
        for summary in self.waiting:
            self._add(table, summary, unfinished=True)
        for summary in self.done:
            self._add(table, summary, unfinished=False)
        yield table
        if not self.status:
            yield Static("No games recorded yet.", id="history-empty")
        yield Footer(show_command_palette=False)

    def _add(self, table: OpenTable, summary: GameSummary, *, unfinished: bool) -> None:
        totals: tuple[int | None, ...] = summary.totals
        if unfinished:
            found = progress_of(self.store, summary.id)
            if found is None:  # a record this version cannot read: listed, not opened
                status = Text("unreadable", style="bold red")
            else:
                status = Text(f"unfinished, {found.stage}", style="bold")
                totals = found.totals
        elif summary.winners and len(summary.players) > 1:
            status = Text("won by " + " and ".join(summary.winners))
        else:
            status = Text("finished")
        players = ", ".join(
            f"{p} {'-' if t is None else t}"
            for p, t in zip(summary.players, totals or (None,) * len(summary.players), strict=False)
        )
        table.add_row(
            status,
            Text(f"{summary.updated_at:%Y-%m-%d %H:%M}"),
            Text(players),
            Text(summary.rules),
            Text(summary.id[:SHORT_ID]),
            key=summary.id,
        )

    def on_mount(self) -> None:
        self.query_one(OpenTable).focus()

    def _highlighted(self) -> str | None:
        table = self.query_one(OpenTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        game_id = str(event.row_key.value)
        if self.status.get(game_id) == "finished":
            self.app.push_screen(ReplayScreen(self.store, game_id))
            return
        self.app.pop_screen()
        try:
            self.app.resume_game(game_id)  # type: ignore[attr-defined]
        except YahtzeeError as error:
            self.app.notify(str(error), severity="error")

    def action_print_card(self) -> None:
        game_id = self._highlighted()
        if game_id is None:
            return
        try:
            path = write_card(self.store, game_id)
        except (OSError, YahtzeeError) as error:
            self.notify(f"Could not write the card: {error}", severity="error")
            return
        self.notify(written_note("Card", path, self.app.size.width, PRINT_IT), timeout=10)


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
        yield Footer(show_command_palette=False)
