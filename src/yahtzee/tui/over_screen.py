"""After the game: standings, every card, and the advisor's review of each human."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ..service import GameSession
from .widgets import ScoreCard


def _rolls(n: int) -> str:
    return "no rolls left" if n == 0 else f"{n} roll{'s' if n > 1 else ''} left"


class GameOverScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "app.new_game", "New game"),
        Binding("r", "rematch", "Rematch"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__(id="over")
        self.session = session

    def compose(self) -> ComposeResult:
        game = self.session.game
        lines = ["Game over"]
        for s in game.standings():
            mark = "  winner" if s.winner else ""
            lines.append(f"  {s.place}. {s.name}: {s.total}{mark}")
        if len(game.winners) > 1:
            lines.append("  A shared win.")
        with VerticalScroll(id="over-body"):
            yield Static("\n".join(lines), id="standings")
            card = ScoreCard()
            card.cursor_type = "none"
            yield card
            reviews = self.session.review() if self.session.humans else []
            for review in reviews:
                costly = review.costliest(3)
                text = [
                    f"{review.name}: expected points lost {review.total_loss:.1f} over "
                    f"{len(review.decisions)} decisions"
                ]
                for d in costly:
                    text.append(
                        f"  round {d.round}, {d.situation.dice.spaced()} with "
                        f"{_rolls(d.situation.rolls_left)}: {d.text}; best {d.best_text} "
                        f"(-{d.loss:.2f})"
                    )
                if not costly:
                    text.append("  every decision was optimal.")
                yield Static("\n".join(text), classes="review")
                table: DataTable[str] = DataTable(classes="decisions", cursor_type="row")
                table.add_columns("Round", "Dice", "Rolls", "Chosen", "Best", "Lost")
                for d in review.decisions:
                    table.add_row(
                        str(d.round),
                        d.situation.dice.spaced(),
                        str(d.situation.rolls_left),
                        d.text,
                        d.best_text,
                        f"{d.loss:.2f}",
                    )
                yield table
        yield Footer()

    def action_rematch(self) -> None:
        """The same seats and rules again, in a new game."""
        self.app.action_new_game()  # type: ignore[attr-defined]
        self.app.open_session(self.session.rematch())  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        self.query_one(ScoreCard).show(self.session.game)
