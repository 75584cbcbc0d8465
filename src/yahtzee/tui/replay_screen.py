"""A recorded game, turn by turn: each turn's rolls, keeps and placement beside every card
as it stood after that turn.

The screen only groups the recorded events into turns and words them; the cards come from
the core, by replaying the log up to the end of the turn shown.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.widgets.data_table import RowDoesNotExist

from ..core import Event, Game, GameStarted, GameState, PlayoffRolled, Rolled, Scored
from ..core import state as machine
from ..core.events import event_to_dict
from ..store import Store
from .printing import PRINT_IT, SHORT_ID, write_card, written_note
from .widgets import ScoreCard

OTHER_EVENTS = {"undo": "Takes that placement back"}
"""How the replay words an event that is neither a roll nor a placement, by its type."""


@dataclass(frozen=True, slots=True)
class Step:
    """One turn (or one round of a playoff): the log's events ``start`` to ``end``."""

    start: int
    end: int


def steps(log: tuple[Event, ...]) -> list[Step]:
    """The log cut into turns: a turn starts with its first roll (a roll right after a
    placement or the start), a playoff round with its first throw; anything else (a
    placement, a re-roll, a placement taken back) belongs to the turn it follows."""
    starts = [
        i
        for i in range(1, len(log))
        if (isinstance(log[i], Rolled) and isinstance(log[i - 1], Scored | GameStarted))
        or (isinstance(log[i], PlayoffRolled) and not isinstance(log[i - 1], PlayoffRolled))
    ]
    return [Step(s, e) for s, e in zip(starts, [*starts[1:], len(log)], strict=True)]


class ReplayScreen(Screen[None]):
    """A finished (or any recorded) game, one turn at a time."""

    BINDINGS = [
        Binding("left,p", "step(-1)", "Previous", priority=True, key_display="←/p"),
        Binding("right,n", "step(1)", "Next", priority=True, key_display="→/n"),
        Binding("home", "go(0)", "First", show=False, priority=True),
        Binding("end", "go(-1)", "Last", show=False, priority=True),
        Binding("c", "print_card", "Print card"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, store: Store, game_id: str) -> None:
        super().__init__(id="replay")
        self.store = store
        self.game_id = game_id
        self.summary = store.summary(game_id)
        self.raw: list[dict[str, Any]] = store.event_log(game_id)
        self.game = Game.replay(self.raw)
        self.steps = steps(self.game.event_log)
        self.states = self._states()
        self.index = 0
        self._games: dict[int, Game] = {}

    def _states(self) -> list[GameState]:
        """The state after each event of the log (index ``i``: after event ``i``)."""
        log = self.game.event_log
        opening = log[0]
        assert isinstance(opening, GameStarted)
        states = [machine.start(opening)]
        for event in log[1:]:
            states.append(machine.apply(states[-1], event))
        return states

    def compose(self) -> ComposeResult:
        s = self.summary
        yield Static(
            f"Replay of game {self.game_id[:SHORT_ID]} ({s.rules} rules, {s.created_at:%Y-%m-%d})",
            id="title",
        )
        with Horizontal(id="replay-body"):
            with VerticalScroll(id="replay-side"):
                yield Static(id="replay-turn")
            card = ScoreCard()
            card.can_focus = False
            yield card
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.show_step()

    def game_after(self, end: int) -> Game:
        """The game as it stood after the log's first ``end`` events (the core replays
        them)."""
        if end not in self._games:
            self._games[end] = Game.replay(self.raw[:end])
        return self._games[end]

    def show_step(self) -> None:
        """The turn at `index`, and the cards after it with its box highlighted."""
        card = self.query_one(ScoreCard)
        if not self.steps:
            self.query_one("#replay-turn", Static).update("No turn was played.")
            card.show(self.game)
            return
        step = self.steps[self.index]
        self.query_one("#replay-turn", Static).update(self.turn_text(self.index))
        card.show(self.game_after(step.end))
        scored = [e for e in self.game.event_log[step.start : step.end] if isinstance(e, Scored)]
        if scored:
            with contextlib.suppress(RowDoesNotExist):
                card.move_cursor(row=card.get_row_index(scored[-1].category.key), animate=False)

    def turn_text(self, index: int) -> str:
        step = self.steps[index]
        log, names = self.game.event_log, self.game.players
        before = self.states[step.start - 1]
        lines = [f"Turn {index + 1} of {len(self.steps)}"]
        if isinstance(log[step.start], PlayoffRolled) or before.turn is None:
            lines.append("Playoff for first place")
        else:
            lines.append(
                f"Round {before.turn.round} of {self.game.rules.rounds}: "
                f"{names[before.turn.player]}"
            )
        lines.append("")
        for i in range(step.start, step.end):
            lines.extend(self._words(log[i], self.states[i], names))
        if step.end == len(log):
            lines.extend(["", *self._ending()])
        return "\n".join(lines)

    @staticmethod
    def _words(event: Event, after: GameState, names: tuple[str, ...]) -> list[str]:
        match event:
            case Rolled(_, keep, dice):
                rolls = after.turn.rolls if after.turn is not None else 0
                kept = [f"Keep    {keep.spaced()}"] if rolls > 1 else []
                return [*kept, f"Roll {rolls}  {dice.spaced()}"]
            case Scored(player, category, points, bonus):
                extra = f" + {bonus} bonus" if bonus else ""
                return [
                    f"Scores {points}{extra} in {category.display_name}",
                    f"Total   {after.cards[player].total}",
                ]
            case PlayoffRolled(player, dice):
                return [f"{names[player]} throws {dice.spaced()} (sum {dice.total})"]
            case _:
                kind = str(event_to_dict(event)["type"])
                return [OTHER_EVENTS.get(kind, kind)]

    def _ending(self) -> list[str]:
        if not self.game.is_over:
            return ["The game is still in progress."]
        standings = self.game.standings()
        if len(standings) == 1:
            return [f"Final score: {standings[0].total}"]
        return ["Final standings:"] + [
            f"  {s.place}. {s.name} {s.total}{'  winner' if s.winner else ''}" for s in standings
        ]

    def action_step(self, by: int) -> None:
        """``by`` turns on (or back), stopping at the first and the last."""
        self._show(max(0, min(len(self.steps) - 1, self.index + by)))

    def action_go(self, index: int) -> None:
        """Turn ``index`` (``-1``: the last)."""
        self._show(index % len(self.steps) if self.steps else 0)

    def _show(self, index: int) -> None:
        if self.steps and index != self.index:
            self.index = index
            self.show_step()

    def action_print_card(self) -> None:
        try:
            path = write_card(self.store, self.game_id)
        except OSError as error:
            self.notify(f"Could not write the card: {error}", severity="error")
            return
        self.notify(written_note("Card", path, self.app.size.width, PRINT_IT), timeout=10)
