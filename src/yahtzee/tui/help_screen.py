"""Rules and key bindings: every key of every screen, in two columns that wrap cleanly at
any width (a description wraps within its own column), then the rules in words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..core import Box, Edition, RuleSet
from ..core.language import N_, _
from .widgets import FIVE_ALIKE_KEY, box_keys
from .words import SpokenModal

BOX_LINE = 42
"""Box names listed on one line of the help at most (characters)."""


def box_lines(edition: Edition) -> list[tuple[str, str]]:
    """The boxes of the edition's card with their keys: the upper boxes on a line, then
    the lower ones, as many on a line as fit."""
    keys = box_keys(edition)
    groups: list[list[Box]] = [list(edition.upper), []]
    for box in edition.lower:
        names = ", ".join(b.display_name for b in [*groups[-1], box])
        if groups[-1] and len(names) > BOX_LINE:
            groups.append([])
        groups[-1].append(box)
    return [(" ".join(keys[b] for b in g), ", ".join(b.display_name for b in g)) for g in groups]


def sections(editions: Sequence[Edition]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every screen's keys, with the boxes of ``editions`` (the first's on the play
    screen's lines)."""
    first = editions[0]
    letters = sorted(set(box_keys(first).values()) - {FIVE_ALIKE_KEY})
    five = first.five_of_a_kind.display_name
    boxes = [(_("Boxes (keys on the play screen)"), box_lines(first))]
    boxes += [
        # Translators: {edition} is Yahtzee or Yatzy
        (_("{edition} boxes (keys on its card)").format(edition=e.title), box_lines(e))
        for e in editions[1:]
    ]
    return [
        (
            _("Playing"),
            [
                ("r, space", _("roll (the kept dice stay; the first roll throws all five)")),
                ("1, 2, 3, 4, 5", _("keep or release the die in that place (or click it)")),
                (
                    f"{letters[0]}-{letters[-1]}, {FIVE_ALIKE_KEY}",
                    _("score the dice in that box (its key is on the card)"),
                ),
                # Translators: the help's first column names keys: a key's name (enter,
                # esc, space, pgup) stays as the keyboard and the footer show it; words
                # such as "arrows" are translated
                (_("arrows, enter"), _("move in the card; Enter (or a click) scores that box")),
                ("u", _("undo your last placement until the next player rolls (where allowed)")),
                ("h", _("the advisor's hint (when hints are allowed)")),
                ("s", _("a computer player plays at once (it waits while you may undo)")),
                ("t", _("light or dark theme")),
                ("?", _("this help")),
                ("q", _("quit: the game is saved and offered again next time")),
                ("y, n, esc", _("when asked to score a zero: yes, or no")),
                ("p", _("print the pad of the sitting so far (its games in columns)")),
            ],
        ),
        (
            _("Real dice (rolled at the table)"),
            [
                ("1 2 3 4 5 6", _("type the five dice showing, like 33356")),
                ("0 7 8 9", _("typed too: Enter then says that a die shows 1 to 6")),
                ("enter", _("enter the dice typed (after roll 1 or 2: the next roll)")),
                ("backspace, esc", _("take back a die typed, or all of them")),
                ("r", _("which roll of the turn (1, 2, 3 or not said): the hint advises a keep")),
                (_("r (dice typed)"), _("the next roll, or a correction of the dice entered")),
                ("space", _("says how to enter the dice (the program rolls nothing)")),
                ("w", _("write a box's points (quick score entry; Enter writes, Esc cancels)")),
                (
                    "x",
                    _("a {five} of a face (1-6): its dice entered, then choose the box").format(
                        five=five
                    ),
                ),
            ],
        ),
        *boxes,
        (
            _("New game"),
            [
                ("tab", _("the next field (seat names, kinds, rules, seed, hints)")),
                ("ctrl+s", _("start the game")),
                ("ctrl+a", _("add a player")),
                ("ctrl+b", _("add a bot (a computer player; choose its level)")),
                ("ctrl+d", _("remove the last seat")),
                ("ctrl+e", _("real dice: the players roll at the table and type them (no bots)")),
                (
                    _("ctrl+t"),
                    _("today's daily game: the same dice for everyone today (offline: unranked)"),
                ),
                ("f4", _("print a blank pad for these players and rules")),
                ("f2", _("history: resume, replay or print any recorded game")),
                ("f3", _("statistics per player")),
                ("f1", _("this help")),
                ("q", _("quit (outside a text field, where q is typed)")),
                ("ctrl+q", _("quit, from any screen")),
            ],
        ),
        (
            _("Offer to resume"),
            [
                ("y", _("resume the latest unfinished game")),
                ("h, f2", _("the history, to choose among all unfinished games")),
                ("n, esc", _("a new game")),
            ],
        ),
        (
            _("History"),
            [
                ("enter", _("resume an unfinished game, replay a finished one (or click it)")),
                (
                    "c",
                    _("print its card: an HTML page in your Downloads folder (or the current one)"),
                ),
                ("esc", _("back")),
            ],
        ),
        (
            _("Replay"),
            [
                ("left, p", _("the previous turn")),
                ("right, n", _("the next turn")),
                ("home, end", _("the first or the last turn")),
                ("c", _("print the card")),
                ("esc", _("back to the history")),
            ],
        ),
        (
            _("Game over"),
            [
                ("r", _("the next game of the sitting: the same seats, rules and dice")),
                ("p", _("print the sitting's pad (one column per game, the running total)")),
                ("n", _("a new game (a new sitting)")),
                (_("arrows"), _("scroll the card and the review (pgup, pgdn: a page)")),
                ("tab", _("into a review table")),
                ("?", _("this help")),
                ("q", _("quit")),
            ],
        ),
        (
            _("Daily game's result"),
            [
                ("c", _("copy the line to share (or select it with the mouse)")),
                ("n", _("a new game")),
                (_("arrows"), _("scroll the card (pgup, pgdn: a page)")),
                ("?", _("this help")),
                ("q", _("quit")),
            ],
        ),
        (
            _("Everywhere"),
            [
                ("ctrl+q", _("quit (a game is saved)")),
                ("ctrl+p", _("the command palette: actions by name")),
            ],
        ),
        (
            _("This help"),
            [("esc, ?, q, f1", _("close it")), (_("arrows"), _("scroll (pgup, pgdn: a page)"))],
        ),
    ]


def every_key() -> list[tuple[str, list[tuple[str, str]]]]:
    """Every screen's keys, with the boxes of every edition: (section, [(keys, what they
    do)]); keys are separated by ", " (a box's keys by spaces)."""
    return sections([Edition.named(name) for name in Edition.names()])


KEY_WIDTH = 14

_LABEL = re.compile(r"^[A-ZÀ-ÖØ-Þ][\w ]*(\([^)]*\))?:")


def reflow(text: str) -> str:
    """The rules' text as paragraphs that the screen wraps to its width: a line joins the
    one before unless it starts an item (``Joker rule (forced): ...``), a new sentence
    after a full stop, or follows a blank line; paragraphs are set apart by a blank
    line."""
    paragraphs: list[str] = []
    previous = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            pass
        elif not previous or _LABEL.match(line) or previous.endswith((".", ":")):
            paragraphs.append(line)
        else:
            paragraphs[-1] += " " + line
        previous = line
    return "\n\n".join(paragraphs)


def keys_table(section: list[tuple[str, str]]) -> Table:
    table = Table.grid(padding=(0, 2, 0, 0))
    table.add_column(style="bold", width=KEY_WIDTH)
    table.add_column(ratio=1)
    for keys, what in section:
        table.add_row(keys, what)
    return table


def help_text(rules: RuleSet) -> RenderableType:
    parts: list[RenderableType] = []
    for title, section in sections([rules.edition]):
        parts.extend([Text(title, style="bold underline"), keys_table(section), Text("")])
    parts.extend([Text(_("Rules"), style="bold underline"), Text(reflow(rules.describe()))])
    return Group(*parts)


class HelpScreen(SpokenModal[None]):
    BINDINGS = [Binding("escape,question_mark,q,f1", "app.pop_screen", N_("Close"))]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(id="help")
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.rules), id="help-text")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()  # the arrows scroll at once
