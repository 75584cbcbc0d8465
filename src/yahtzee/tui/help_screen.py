"""Rules and key bindings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..core import RuleSet

KEYS = """Keys
  r or space   roll (the kept dice stay; the others are thrown)
  1 - 5        keep or release a die (or click it)
  arrows       move in the scorecard; Enter (or a click) scores the dice in that box
  h            the advisor's hint (when hints are allowed)
  s            skip a computer player's pause
  t            light or dark theme
  ?            this help;  q  quit (the game is saved and offered again next time)
On the new-game screen: ctrl+s start, ctrl+a / ctrl+d add or remove a seat,
F2 history, F3 statistics.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q,f1", "app.pop_screen", "Close")]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__(id="help")
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body"):
            yield Static(KEYS + "\n" + self.rules.describe())
