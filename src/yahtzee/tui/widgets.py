"""Widgets of the terminal game: dice drawn as dice, and the scorecard of every player.

Attributes down, messages up: the play screen sets what they show; they post what the
player clicked.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from ..core import Category, Game, Placement, Scorecard

# Pips of each face on a 3 x 3 grid (row, column).
_PIPS = {
    1: {(1, 1)},
    2: {(0, 0), (2, 2)},
    3: {(0, 0), (1, 1), (2, 2)},
    4: {(0, 0), (0, 2), (2, 0), (2, 2)},
    5: {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
    6: {(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)},
}


def die_lines(face: int | None) -> list[str]:
    """A die as five lines of seven characters (blank before the first roll)."""
    rows = []
    for r in range(3):
        cells = ["●" if face and (r, c) in _PIPS[face] else " " for c in range(3)]
        rows.append("│" + " ".join(cells) + "│")
    return ["╭─────╮", *rows, "╰─────╯"]


class Die(Static):
    """One die; click it (or press its number) to keep it for the next roll."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(id=f"die-{index + 1}", classes="die")
        self.index = index
        self.face: int | None = None
        self.held = False

    def show(self, face: int | None, held: bool) -> None:
        self.face, self.held = face, held
        self.set_class(held, "held")
        label = f"{self.index + 1} {'KEPT' if held else '    '}"
        self.update("\n".join([*die_lines(face), label.center(7)]))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


class DiceTray(Widget):
    """The five dice, in sorted order, with the kept ones marked."""

    def compose(self):  # type: ignore[no-untyped-def]
        for index in range(5):
            yield Die(index)

    def show(self, faces: tuple[int, ...] | None, held: tuple[bool, ...]) -> None:
        for index, die in enumerate(self.query(Die)):
            die.show(faces[index] if faces else None, held[index])


_TOTAL_ROWS = ("upper", "bonus", "yahtzee_bonus", "total")


class ScoreCard(DataTable[Text]):
    """Every player's card; the current player's open boxes show what the dice would
    score there (``J``: allowed by the Joker rule). Enter or a click chooses a box."""

    class BoxChosen(Message):
        def __init__(self, category: Category) -> None:
            super().__init__()
            self.category = category

    def __init__(self) -> None:
        super().__init__(id="scorecard", cursor_type="row", zebra_stripes=False)

    def show(self, game: Game) -> None:
        cursor = self.cursor_row
        self.clear(columns=True)
        self.add_column("Box", key="box")
        for seat, name in enumerate(game.players):
            self.add_column(name[:9], key=f"p{seat}")
        current = game.current_player
        options = {p.category: p for p in game.placements()}
        for category in Category:
            if category is Category.THREE_OF_A_KIND:
                self._totals_row("upper", "Upper", [c.upper_subtotal for c in game.cards], game)
                bonus = [self._bonus(c) for c in game.cards]
                self.add_row(Text("Bonus"), *bonus, key="bonus")
            cells = [
                self._cell(card, category, options, s == current)
                for s, card in enumerate(game.cards)
            ]
            self.add_row(Text(category.display_name), *cells, key=category.key)
        self._totals_row(
            "yahtzee_bonus", "Yahtzee bonus", [c.yahtzee_bonus for c in game.cards], game
        )
        self._totals_row("total", "Total", [c.total for c in game.cards], game)
        if options:
            first = min(options)
            self.move_cursor(row=self._row_of(first), animate=False)
        elif 0 <= cursor < self.row_count:
            self.move_cursor(row=cursor, animate=False)

    @staticmethod
    def _row_of(category: Category) -> int:
        return int(category) + (2 if category.is_lower else 0)

    def _totals_row(self, key: str, label: str, values: list[int], game: Game) -> None:
        self.add_row(
            Text(label, style="bold"), *(Text(str(v), style="bold") for v in values), key=key
        )

    @staticmethod
    def _bonus(card: Scorecard) -> Text:
        if card.upper_bonus:
            return Text(str(card.upper_bonus), style="bold")
        return Text(f"need {card.points_to_upper_bonus}", style="dim")

    @staticmethod
    def _cell(
        card: Scorecard, category: Category, options: dict[Category, Placement], current: bool
    ) -> Text:
        points = card[category]
        if points is not None:
            return Text(str(points))
        if not current or not options:
            return Text("")
        option = options.get(category)
        if option is None:
            return Text("·", style="dim")
        mark = "J" if option.joker else ""
        bonus = f"+{option.yahtzee_bonus}" if option.yahtzee_bonus else ""
        style = "italic" if option.points else "dim italic"
        return Text(f"{option.points}{bonus}{mark}", style=style)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is None or key in _TOTAL_ROWS:
            return
        event.stop()
        self.post_message(self.BoxChosen(Category.parse(key)))
