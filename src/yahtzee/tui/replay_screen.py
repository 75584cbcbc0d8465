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
from textual.widgets import Footer, Static
from textual.widgets.data_table import RowDoesNotExist

from ..core import Event, Game, GameStarted, GameState, PlayoffRolled, Rolled, Scored
from ..core import state as machine
from ..core.events import event_to_dict
from ..core.language import N_, _
from ..store import Store
from .printing import PRINT_IT, SHORT_ID, write_card, written_note
from .widgets import ScoreCard
from .words import SpokenScreen, on_day

OTHER_EVENTS = {"undo": N_("Takes that placement back")}
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


class ReplayScreen(SpokenScreen[None]):
    """A finished (or any recorded) game, one turn at a time."""

    BINDINGS = [
        # Translators: keys in the replay's footer: the previous and the next turn
        Binding("left,p", "step(-1)", N_("Previous"), priority=True, key_display="←/p"),
        Binding("right,n", "step(1)", N_("Next"), priority=True, key_display="→/n"),
        Binding("home", "go(0)", N_("First"), show=False, priority=True),
        Binding("end", "go(-1)", N_("Last"), show=False, priority=True),
        Binding("c", "print_card", N_("Print card")),
        Binding("escape", "app.pop_screen", N_("Back")),
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
        title = _("Replay of game {game} ({rules} rules, {day})").format(
            game=self.game_id[:SHORT_ID], rules=s.rules, day=on_day(s.created_at.date())
        )
        yield Static(title, id="title")
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
            self.query_one("#replay-turn", Static).update(_("No turn was played."))
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
        lines = [_("Turn {turn} of {turns}").format(turn=index + 1, turns=len(self.steps))]
        if isinstance(log[step.start], PlayoffRolled) or before.turn is None:
            lines.append(_("Playoff for first place"))
        else:
            lines.append(
                _("Round {round} of {rounds}: {name}").format(
                    round=before.turn.round,
                    rounds=self.game.rules.rounds,
                    name=names[before.turn.player],
                )
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
                # Translators: the replay's lines of a turn are aligned: "Keep", "Roll 1"
                # and "Total" padded to 8 characters
                kept = [_("Keep    {dice}").format(dice=keep.spaced())] if rolls > 1 else []
                return [*kept, _("Roll {roll}  {dice}").format(roll=rolls, dice=dice.spaced())]
            case Scored(player, category, points, bonus):
                box = category.display_name
                if bonus:
                    scores = _("Scores {points} + {bonus} bonus in {box}").format(
                        points=points, bonus=bonus, box=box
                    )
                else:
                    scores = _("Scores {points} in {box}").format(points=points, box=box)
                total = _("Total   {points}").format(points=after.cards[player].total)
                return [scores, total]
            case PlayoffRolled(player, dice):
                return [
                    _("{name} throws {dice} (sum {sum})").format(
                        name=names[player], dice=dice.spaced(), sum=dice.total
                    )
                ]
            case _:
                kind = str(event_to_dict(event)["type"])
                return [_(OTHER_EVENTS[kind]) if kind in OTHER_EVENTS else kind]

    def _ending(self) -> list[str]:
        if not self.game.is_over:
            return [_("The game is still in progress.")]
        standings = self.game.standings()
        if len(standings) == 1:
            return [_("Final score: {points}").format(points=standings[0].total)]
        winner = "  " + _("winner")
        return [_("Final standings:")] + [
            f"  {s.place}. {s.name} {s.total}{winner if s.winner else ''}" for s in standings
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
            self.notify(
                _("Could not write the card: {error}").format(error=error), severity="error"
            )
            return
        note = written_note(_("Card written to"), path, self.app.size.width, _(PRINT_IT))
        self.notify(note, timeout=10)
