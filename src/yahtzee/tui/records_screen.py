"""History (the way back into any recorded game) and statistics from the records."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.widgets import DataTable, Footer, Static

from ..core import YahtzeeError
from ..core.language import N_, _, pgettext
from ..render.numbers import decimal, percent
from ..store import GameSummary, Store, history, progress_of, stats, unfinished
from .printing import PRINT_IT, SHORT_ID, write_card, written_note
from .replay_screen import ReplayScreen
from .words import SpokenScreen, at_moment

FINISHED_SHOWN = 200
"""How many finished games the history lists (every unfinished one is listed)."""


class OpenTable(DataTable[Text]):
    """A table of rows to open: Enter or a single click opens the row."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Open"), key_display="⏎")]

    def on_click(self, event: events.Click) -> None:
        """Runs before the table's own click handling, which selects a row clicked under
        the cursor: moving the cursor there first makes the first click open it."""
        row, column = event.style.meta.get("row"), event.style.meta.get("column")
        if isinstance(row, int) and isinstance(column, int) and row >= 0 and column >= 0:
            self.cursor_coordinate = Coordinate(row, column)


class HistoryScreen(SpokenScreen[None]):
    """Every recorded game, unfinished ones first: Enter resumes an unfinished game and
    replays a finished one turn by turn; ``c`` prints the highlighted game's card."""

    BINDINGS = [
        Binding("c", "print_card", N_("Print card")),
        Binding("escape", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__(id="history")
        self.store = store
        self.waiting = unfinished(store)
        self.done = history(store, status="finished", limit=FINISHED_SHOWN)
        self.status = {s.id: s.status for s in (*self.waiting, *self.done)}

    def compose(self) -> ComposeResult:
        yield Static(_("History: unfinished games first"), id="title")
        yield Static(
            _(
                "Enter or a click resumes an unfinished game or replays a finished one; "
                "c prints its scorecard."
            ),
            id="history-help",
        )
        table = OpenTable(cursor_type="row", id="games")
        table.add_columns(
            # Translators: the history's column heads
            _("Status"),
            _("Last played"),
            _("Players (score)"),
            _("Rules"),
            _("Game"),
        )
        for summary in self.waiting:
            self._add(table, summary, unfinished=True)
        for summary in self.done:
            self._add(table, summary, unfinished=False)
        yield table
        if not self.status:
            yield Static(_("No games recorded yet."), id="history-empty")
        yield Footer(show_command_palette=False)

    def _add(self, table: OpenTable, summary: GameSummary, *, unfinished: bool) -> None:
        totals: tuple[int | None, ...] = summary.totals
        if unfinished:
            found = progress_of(self.store, summary.id)
            if found is None:  # a record this version cannot read: listed, not opened
                # Translators: a game's status in the history (its record cannot be read)
                status = Text(_("unreadable"), style="bold red")
            else:
                # Translators: {stage} says how far the game got ("round 5 of 13")
                stage = _("unfinished, {stage}").format(stage=found.stage)
                status = Text(stage, style="bold")
                totals = found.totals
        elif summary.winners and len(summary.players) > 1:
            status = Text(_("won by {names}").format(names=both(summary.winners)))
        else:
            status = Text(_("finished"))
        players = ", ".join(
            f"{p} {'-' if t is None else t}"
            for p, t in zip(summary.players, totals or (None,) * len(summary.players), strict=False)
        )
        table.add_row(
            status,
            Text(at_moment(summary.updated_at)),
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
            self.notify(
                _("Could not write the card: {error}").format(error=error), severity="error"
            )
            return
        note = written_note(_("Card written to"), path, self.app.size.width, _(PRINT_IT))
        self.notify(note, timeout=10)


def both(names: tuple[str, ...] | list[str]) -> str:
    """Names as a sentence lists them: ``Ann and Bob`` (and ``Ann and Bob and Cy``)."""
    said = names[0] if names else ""
    for name in names[1:]:
        # Translators: two names (or a list of names and one more) joined
        said = _("{first} and {second}").format(first=said, second=name)
    return said


class StatsScreen(SpokenScreen[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", N_("Back"))]

    def __init__(self, store: Store) -> None:
        super().__init__(id="stats")
        self.store = store

    def compose(self) -> ComposeResult:
        yield Static(_("Statistics per player (finished games)"), id="title")
        table: DataTable[str] = DataTable(cursor_type="row")
        table.add_columns(
            # Translators: the statistics' column heads ("Yahtzee", the box's name, is
            # the share of games with a Yahtzee)
            _("Player"),
            _("Games"),
            _("Wins"),
            _("Average"),
            _("Best"),
            _("Upper bonus"),
            pgettext("american box", "Yahtzee"),
            _("Loss/decision"),
        )
        for s in stats(self.store):
            loss = "-" if s.loss_per_decision is None else decimal(s.loss_per_decision, 2)
            table.add_row(
                s.player,
                str(s.games),
                str(s.wins),
                decimal(s.average, 1),
                str(s.best),
                percent(s.upper_bonus_rate, 0),
                percent(s.yahtzee_rate, 0),
                loss,
            )
        yield table
        yield Footer(show_command_palette=False)
