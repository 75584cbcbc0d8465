"""Widgets of the terminal game: dice drawn as dice, and the scorecard of every player.

Attributes down, messages up: the play screen sets what they show; they post what the
player clicked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Checkbox, DataTable, Static
from textual.widgets.data_table import ColumnKey

from ..core import Box, Edition, Game, Placement, Scorecard, Scoring
from ..core.language import _
from ..render import numbers
from ..service.sitting import running_totals, sitting_from

if TYPE_CHECKING:
    from ..service.meter import MeterReading

# Pips of each face on a 3 x 3 grid (row, column).
_PIPS = {
    1: {(1, 1)},
    2: {(0, 0), (2, 2)},
    3: {(0, 0), (1, 1), (2, 2)},
    4: {(0, 0), (0, 2), (2, 0), (2, 2)},
    5: {(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)},
    6: {(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)},
}


def die_lines(face: int | None, compact: bool = False) -> list[str]:
    """A die as five lines of seven characters (blank before the first roll); ``compact``:
    three lines of five, the face as a digit (for narrow terminals)."""
    if compact:
        return ["╭───╮", f"│ {face or ' '} │", "╰───╯"]
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

    def show(self, face: int | None, held: bool, compact: bool = False) -> None:
        self.face, self.held = face, held and face is not None  # blank dice are never kept
        self.set_class(self.held, "held")
        width = 5 if compact else 7
        # Translators: below a die kept for the next roll (at most 5 characters)
        mark = _("KEPT") if self.held else ""
        label = f"{self.index + 1} {mark}" if not compact else (mark or str(self.index + 1))
        if len(label) > width:  # a longer word: the mark alone, cut to the die's width
            label = mark[:width]
        self.update("\n".join([*die_lines(face, compact), label.center(width)]))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))


class DiceTray(Widget):
    """The five dice, in sorted order, with the kept ones marked."""

    def compose(self):  # type: ignore[no-untyped-def]
        for index in range(5):
            yield Die(index)

    def show(
        self, faces: tuple[int, ...] | None, held: tuple[bool, ...], compact: bool = False
    ) -> None:
        for index, die in enumerate(self.query(Die)):
            die.show(faces[index] if faces else None, held[index], compact)


class TickBox(Checkbox):
    """A checkbox whose mark, not only its colour, says whether it is on: a tick when on,
    blank when off (a colour alone is lost on a monochrome terminal or to a colour-blind
    player)."""

    ON, OFF = "✓", " "

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id)
        self.BUTTON_INNER = self.ON if value else self.OFF

    def watch_value(self) -> None:
        self.BUTTON_INNER = self.ON if self.value else self.OFF
        super().watch_value()


UPPER_KEYS = "abcdef"
LOWER_KEYS = "gijklmo"
"""The keys of the boxes, shown on the card: a-f the upper boxes, then the lower ones in
card order from these (h is the hint, p the pad), but for two with a letter of their
own: y the five-alike box (Yahtzee, Yatzy), n Chance."""
FIVE_ALIKE_KEY, CHANCE_KEY = "y", "n"


def box_keys(edition: Edition) -> dict[Box, str]:
    """One key per box of the edition's card (the American: a-f, g i j k l y n)."""
    keys: dict[Box, str] = dict(zip(edition.upper, UPPER_KEYS, strict=True))
    letters = iter(LOWER_KEYS)
    for box, rule in zip(edition.boxes, edition.box_rules, strict=True):
        if box.is_upper:
            continue
        if box is edition.five_of_a_kind:
            keys[box] = FIVE_ALIKE_KEY
        elif rule.kind is Scoring.CHANCE:
            keys[box] = CHANCE_KEY
        else:
            keys[box] = next(letters)
    return keys


def every_box_key() -> tuple[str, ...]:
    """The keys of the boxes of every edition (a key a card lacks does nothing there)."""
    keys = (key for name in Edition.names() for key in box_keys(Edition.named(name)).values())
    return tuple(dict.fromkeys(keys))


BOX_KEYS: dict[Box, str] = box_keys(Edition.american())
"""The American card's keys."""
BOX_NAME_WIDTH = 12
"""The box column's room for a name, after the key and a space."""


def row_name(box: Box) -> str:
    """A box's name on the card: printed as on the paper card where it fits, else its
    short name without abbreviation dots ("3 of a kind", "Sm straight")."""
    name = box.display_name
    return name if len(name) <= BOX_NAME_WIDTH else box.short_name.replace(".", "")


_TOTAL_ROWS = ("upper", "bonus", "yahtzee_bonus", "total", "running", "win")
BOX_WIDTH = 14
"""The box column: key, name ("g 3 of a kind") and a space (cells have no padding); wider
where a language's names of the card's rows are longer (`box_width`)."""
MAX_BOX_WIDTH = 18
"""The box column at its widest (four players' cards still fit 80 columns beside the
small dice)."""
NAME_WIDTH = (7, 9)
"""A player's column holds 7 to 9 characters of the name ("need 18" fits)."""
PAST_WIDTH = 5
"""A column of an earlier game of the sitting: a total and a space ("1234 ")."""


def player_width(
    names: tuple[str, ...], room: int | None = None, past: int = 0, box: int = BOX_WIDTH
) -> int:
    """One width for every player's column: the longest name (7 to 9 characters shown),
    and a space; narrower, down to 7 characters, where the card has only ``room``
    columns for the box names (``box`` wide) and every player (so that four cards fit in
    80x24), and the ``past`` games' columns of each player."""
    low, high = NAME_WIDTH
    width = max(low, min(high, max(len(n) for n in names))) + 1
    if room is not None:
        room -= PAST_WIDTH * past * len(names)
        width = max(low + 1, min(width, (room - box) // len(names)))
    return width


def card_width(names: tuple[str, ...], past: int = 0, edition: Edition | None = None) -> int:
    """The columns a card of these players needs (with ``past`` earlier games each), its
    box column as wide as the ``edition``'s names need in the language in force."""
    box = BOX_WIDTH if edition is None else box_width(edition)
    return box + (player_width(names) + PAST_WIDTH * past) * len(names)


def row_labels(edition: Edition) -> list[str]:
    """The names of the card's rows of totals, in the language in force."""
    labels = [_("Upper"), bonus_label(edition), _("Total"), _("Running total"), _("Win chance")]
    if edition.extra_rules:
        labels.append(five_bonus_label(edition))
    return labels


def bonus_label(edition: Edition) -> str:
    """The upper bonus's row: ``Bonus (63+)``."""
    # Translators: a row of the score card (at most 13 characters): the upper bonus,
    # earned with {threshold} points or more in the upper boxes
    return _("Bonus ({threshold}+)").format(threshold=edition.upper_bonus_threshold)


def five_bonus_label(edition: Edition) -> str:
    """The row of the bonus for each further five alike: ``Yahtzee bonus``."""
    # Translators: a row of the score card (at most 13 characters): {five} is Yahtzee
    return _("{five} bonus").format(five=edition.five_of_a_kind.display_name)


def box_width(edition: Edition) -> int:
    """The box column of the edition's card: `BOX_WIDTH`, wider (up to `MAX_BOX_WIDTH`)
    where a row's name in the language in force is longer (a space kept after it)."""
    keys = box_keys(edition)
    names = [f"{keys[box]} {row_name(box)}" for box in edition.boxes]
    longest = max(len(label) for label in [*names, *row_labels(edition)])
    return max(BOX_WIDTH, min(MAX_BOX_WIDTH, longest + 1))


class ScoreCard(DataTable[Text]):
    """Every player's card. The current player's open boxes show, dimmed and in brackets,
    what the dice would score there (``J``: allowed by the Joker rule); filled boxes show
    their points plainly. A box's key, a click, or Enter on the highlighted row fills it.
    The box names stay put when the card scrolls sideways. In a sitting of several games
    each player has a column per earlier game before this game's, as on the paper pad,
    and a last line with the running total across them."""

    class BoxChosen(Message):
        def __init__(self, category: Box) -> None:
            super().__init__()
            self.category = category

    def __init__(self) -> None:
        super().__init__(id="scorecard", cursor_type="row", zebra_stripes=False, cell_padding=0)
        self.fixed_columns = 1
        # players, their width, earlier games, the box column's width
        self._layout: tuple[tuple[str, ...], int, int, int] = ((), 0, 0, 0)
        self._shown: tuple[Game, WinChances | None, tuple[Game, ...]] | None = None
        self._past: tuple[Game, ...] = ()  # the sitting's earlier games shown
        self.edition = Edition.american()  # of the game shown

    def on_resize(self, event: events.Resize) -> None:
        """Lay the columns out again for the new width (the last cards shown again)."""
        if self._shown is not None:
            self.show(*self._shown)

    def _room(self) -> int | None:
        """Columns the card has for the box names and the players (without a vertical
        scrollbar's); ``None`` before it is laid out."""
        return self.scrollable_content_region.width or None

    def show(self, game: Game, win: WinChances | None = None, past: Sequence[Game] = ()) -> None:
        """The cards of ``game``; ``win``: a last row, each player's chance to win;
        ``past``: the sitting's earlier games (their columns, and the running total)."""
        past = tuple(past)
        self._shown = (game, win, past)
        self._past = past
        cursor = self.cursor_row
        kept_row = self._box_at(cursor)
        edition = game.rules.edition
        box = box_width(edition)
        width = player_width(game.players, self._room(), len(past), box)
        if (game.players, width, len(past), box) != self._layout:  # fixed widths: lay out
            self._lay_out(game.players, width, len(past), box)
        else:
            self.clear()
        current = game.current_player
        game_line = f"\n{game_number(len(past) + 1)}" if past else ""
        for seat, name in enumerate(game.players):  # the player to act: underlined
            style = "bold underline" if seat == current else "bold"
            label = Text(column_name(name, width) + game_line, style=style)
            self.columns[ColumnKey(f"p{seat}")].label = label
        options = {p.category: p for p in game.placements()}
        over = game.is_over
        self.edition = edition
        keys = box_keys(edition)
        threshold = edition.upper_bonus_threshold
        for category in edition.boxes:
            if category is edition.lower[0]:
                # Translators: a row of the score card (at most 13 characters): the sum of
                # the upper boxes
                self._totals_row("upper", _("Upper"), game, lambda c: c.upper_subtotal)
                tight = len(game.cards) > 1 and width - 2 < len(need_words(threshold))
                bonus = [self._bonus(c, over, tight) for c in game.cards]  # columns follow
                self._row("bonus", Text(bonus_label(edition), style="bold"),
                          bonus, lambda c: _plain(c.upper_bonus))  # fmt: skip
            cells = [
                self._cell(card, category, options, s == current)
                for s, card in enumerate(game.cards)
            ]
            label = Text.assemble((keys[category], "bold underline"), " ", row_name(category))
            self._row(category.key, label, cells, partial(_box_points, category))
        if edition.extra_rules:
            bonus_name = five_bonus_label(edition)
            self._totals_row("yahtzee_bonus", bonus_name, game, lambda c: c.yahtzee_bonus)
        # Translators: a row of the score card (at most 13 characters): the game's total
        self._totals_row("total", _("Total"), game, lambda c: c.total)
        if past:
            self._running_row(game, past)
        if win is not None and len(win.chances) == len(game.cards):
            cells = [chance_cell(p, width - 1, estimate=win.estimate) for p in win.chances]
            self._row("win", Text(win.label, style="bold"), cells, lambda c: Text(""))
        if options:  # stay on the box the player was on, if it is still a choice
            target = kept_row if kept_row in options else min(options)
            self.move_cursor(row=row_of(target), animate=False)
        elif 0 <= cursor < self.row_count:
            self.move_cursor(row=cursor, animate=False)

    def _lay_out(self, players: tuple[str, ...], width: int, past: int, box: int) -> None:
        """The columns: the boxes' (``box`` wide), then each player's ``past`` games'
        and this game's (``width`` wide)."""
        self.clear(columns=True)
        self._layout = (players, width, past, box)
        self.header_height = 2 if past else 1
        # Translators: the score card's first column head (the boxes)
        self.add_column(_("Box"), key="box", width=box)
        for seat, name in enumerate(players):
            for g in range(past):
                label = Text(f"{name[: PAST_WIDTH - 1]}\n{game_number(g + 1)}", style="dim")
                self.add_column(label, key=f"g{g}p{seat}", width=PAST_WIDTH)
            self.add_column(column_name(name, width), key=f"p{seat}", width=width)

    def _row(
        self, key: str, label: Text, cells: Sequence[Text], earlier: Callable[[Scorecard], Text]
    ) -> None:
        """A row: each player's cells of the earlier games (``earlier`` of their card
        there), then this game's cell."""
        row: list[Text] = []
        for seat, cell in enumerate(cells):
            row.extend(earlier(game.cards[seat]) for game in self._past)
            row.append(cell)
        self.add_row(label, *row, key=key)

    def _totals_row(
        self, key: str, label: str, game: Game, value: Callable[[Scorecard], int]
    ) -> None:
        cells = [Text(str(value(c)), style="bold") for c in game.cards]
        self._row(key, Text(label, style="bold"), cells, lambda c: Text(str(value(c))))

    def _running_row(self, game: Game, past: tuple[Game, ...]) -> None:
        """Each player's running total after each game of the sitting, this one so far."""
        sitting = sitting_from("", [(str(n), g) for n, g in enumerate(past)])
        rows = running_totals(sitting)
        row: list[Text] = []
        for seat, card in enumerate(game.cards):
            row.extend(Text(str(totals[seat])) for totals in rows)
            row.append(Text(str(rows[-1][seat] + card.total), style="bold reverse"))
        # Translators: a row of the score card (at most 13 characters): each player's
        # total across the games of the sitting so far
        self.add_row(Text(_("Running total"), style="bold"), *row, key="running")

    def box_at_cursor(self) -> Box | None:
        """The box of the highlighted row (None on a totals row)."""
        return self._box_at(self.cursor_row)

    def _box_at(self, row: int) -> Box | None:
        for category in self.edition.boxes:
            if row_of(category) == row:
                return category
        return None

    @staticmethod
    def _bonus(card: Scorecard, over: bool, tight: bool) -> Text:
        """The bonus: its points, 0 once missed, else how far from it: "need 63", or
        "-63" where the players' columns are too narrow to keep two spaces before the
        next one (``tight``; "need 63 0" would read as one)."""
        if card.upper_bonus:
            return Text(str(card.upper_bonus), style="bold")
        if over or card.upper_bonus_missed:
            return Text("0", style="bold")  # missed
        need = card.points_to_upper_bonus
        return Text(f"-{need}" if tight else need_words(need), style="dim")

    @staticmethod
    def _cell(card: Scorecard, category: Box, options: dict[Box, Placement], current: bool) -> Text:
        points = card[category]
        if points is not None:
            return Text(str(points), style="bold")
        if not current or not options:
            return Text("")
        option = options.get(category)
        if option is None:
            return Text("·", style="dim")
        mark = "J" if option.joker else ""
        bonus = f"+{option.yahtzee_bonus}" if option.yahtzee_bonus else ""
        shown = f"{option.points}{bonus}{mark}"
        if len(shown) < NAME_WIDTH[0] - 1:  # in brackets where they fit ("25+100J" not)
            shown = f"({shown})"
        return Text(shown, style="dim italic")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key is None or key in _TOTAL_ROWS:
            return
        event.stop()
        self.post_message(self.BoxChosen(self.edition.parse_box(key)))

    async def _on_click(self, event: events.Click) -> None:
        """One click fills a box (the table alone would first only highlight it)."""
        row = event.style.meta.get("row")
        if isinstance(row, int) and 0 <= row < self.row_count:
            event.prevent_default()  # not the table's own click as well
            event.stop()
            self.move_cursor(row=row, animate=False)
            self.action_select_cursor()


def need_words(points: int) -> str:
    """How far a player is from the upper bonus: ``need 18``."""
    # Translators: in a player's column of the bonus row (at most 7 characters with the
    # number): the points still missing for the upper bonus
    return _("need {points}").format(points=points)


def game_number(number: int) -> str:
    """A game of the sitting in a column's head: ``G2``."""
    # Translators: the head of a column of the sitting's game {number} (2-3 characters)
    return _("G{number}").format(number=number)


def _box_points(box: Box, card: Scorecard) -> Text:
    return _plain(card[box])


def _plain(points: int | None) -> Text:
    """A box of an earlier game: its points, blank if it was never filled."""
    return Text("" if points is None else str(points))


@dataclass(frozen=True, slots=True)
class WinChances:
    """The win-chance meter as the card shows it: a row named ``label``, each player's
    chance (0 to 1) in their column."""

    label: str
    chances: tuple[float, ...]
    estimate: bool = False
    """The chances are estimated (shown "≈62%") while the exact ones are prepared."""

    @classmethod
    def of(cls, reading: MeterReading) -> WinChances | None:
        """The row of a meter reading (`GameSession.meter`); None with nothing to
        show. Alone, the chance is to beat the player's best: "Beat best 312"."""
        if reading.chances is None:
            return None
        # Translators: a row of the score card (at most 13 characters): each player's
        # chance to win
        label = _("Win chance")
        if len(reading.chances) == 1:
            # Translators: a row of the score card (at most 13 characters): a player
            # alone, the chance to beat their best total
            label = (
                _("Beat best")
                if reading.best is None
                else _("Beat best {points}").format(points=reading.best)
            )
            if len(label) >= BOX_WIDTH:
                label = _("Beat {points}").format(points=reading.best)
        return cls(label, reading.chances, reading.estimate)


_EIGHTHS = " ▏▎▍▌▋▊▉"
_PERCENT_WIDTH = 5
"""A chance's percent and a space ("100% "): the rest of its cell is the bar."""
_UNSEEN = 0.005
"""Below this a chance rounds to 0%: it is shown as "<1%" (and one this close to 1 as
">99%")."""


def percent(chance: float) -> str:
    """A chance in whole percent; "<1%" and ">99%" for what is possible but not shown by
    rounding (0% and 100% only for what is settled)."""
    if chance <= 0:
        return numbers.percent(0, 0)
    if chance >= 1:
        return numbers.percent(1, 0)
    if chance < _UNSEEN:
        return "<" + numbers.percent(0.01, 0)
    if chance > 1 - _UNSEEN:
        return ">" + numbers.percent(0.99, 0)
    return numbers.percent(round(chance * 100) / 100, 0)


def chance_bar(chance: float, width: int) -> str:
    """A bar ``width`` characters long for a sure thing, drawn in eighths of a character:
    a sliver for any chance above nothing, never full short of a sure thing."""
    steps = len(_EIGHTHS)
    eighths = round(chance * width * steps)
    if chance > 0:
        eighths = max(eighths, 1)
    if chance < 1:
        eighths = min(eighths, width * steps - 1)
    full, part = divmod(max(0, min(width * steps, eighths)), steps)
    return "█" * full + (_EIGHTHS[part] if part else "")


def chance_cell(chance: float, width: int, *, estimate: bool = False) -> Text:
    """A player's cell of the win row, ``width`` characters at most: "62%  █▍░", the bar
    on a dim track as long as a sure thing's; an estimate "≈62% █▍░" (one less)."""
    shown = ("≈" if estimate else "") + percent(chance)
    room = max(1, width - max(_PERCENT_WIDTH, len(shown) + 1))
    bar = chance_bar(chance, room)
    track = "░" * (room - len(bar))
    return Text.assemble((f"{shown:<{width - room}}", "bold"), bar, (track, "dim"))


class WinProgress(Static):
    """How far the table behind the win chances got while it is being prepared (the
    first time, a few minutes); hidden otherwise."""

    progress: reactive[tuple[int, int] | None] = reactive(None)

    def watch_progress(self, progress: tuple[int, int] | None) -> None:
        self.display = progress is not None
        if progress is not None:
            done, total = progress
            if total > 1:
                line = _("Exact win chances: building {done}/{total} (once, in the background)")
            else:
                line = _("Exact win chances: building... (once, in the background)")
            self.update(line.format(done=done, total=total))


_LEVEL = re.compile(r"\s*\(level (\d)\)$")
_KIND = re.compile(r"\s*\([a-z]+\)$")


def column_name(name: str, width: int) -> str:
    """A player's name in a column ``width`` wide (a space kept): when the whole name
    does not fit, a bot's "(level 4)" as "L4" ("Bot 3 L4", "Bot3 L4") and its strategy
    left out ("Bot 2 (winning)" as "Bot 2": a short "Win" would read as a win), then
    cut."""
    if len(name) >= width:
        name = _LEVEL.sub(r" L\1", name)
        name = _KIND.sub("", name)
    if len(name) >= width and name.startswith("Bot "):
        name = "Bot" + name[4:]
    return name[: width - 1]


def row_of(category: Box) -> int:
    """The card's row of a box: the upper boxes, then Upper and Bonus, then the lower."""
    return int(category) + (2 if category.is_lower else 0)
