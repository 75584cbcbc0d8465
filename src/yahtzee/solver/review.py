"""The advisor's review of a played game: every decision, the optimal choice, the loss."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..core import Action, Game, GameStarted, Rolled, Score, Scored, Situation, Undone
from ..core import state as machine
from .advice import TIE, Advice, action_text
from .solver import cached_solver


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one player: what was done, what was best, and the expected points
    it gave up (0 for an optimal choice)."""

    player: int
    round: int
    situation: Situation
    action: Action
    value: float
    best: Action
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)

    @property
    def text(self) -> str:
        return action_text(self.action)

    @property
    def best_text(self) -> str:
        return action_text(self.best)


@dataclass(frozen=True, slots=True)
class PlayerReview:
    player: int
    name: str
    decisions: tuple[Decision, ...]

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def costliest(self, n: int = 3) -> list[Decision]:
        ranked = sorted(self.decisions, key=lambda d: -d.loss)
        return [d for d in ranked[:n] if d.loss > TIE]


def decisions(game: Game) -> Iterable[Decision]:
    """Every decision in the game's log, valued by the optimal solver. A placement that
    was taken back (an ``Undone`` event) is not a decision: the one made instead is."""
    opening = game.event_log[0]
    assert isinstance(opening, GameStarted)
    planner = cached_solver(game.rules)
    state = machine.start(opening)
    found: list[Decision] = []
    for event in game.event_log[1:]:
        turn = state.turn
        if isinstance(event, Undone):
            found.pop()  # the placement just before it
        elif turn is not None and turn.dice is not None and isinstance(event, Rolled | Scored):
            situation = Situation(turn.dice, turn.rolls_left, state.cards[turn.player])
            action: Action = event.keep if isinstance(event, Rolled) else Score(event.category)
            advice = Advice.from_options(situation, game.rules, planner.options(situation))
            found.append(Decision(
                turn.player, turn.round, situation, action,
                planner.action_value(situation, action), advice.best.action, advice.best.value,
            ))  # fmt: skip
        state = machine.apply(state, event)
    return found


def review(game: Game, players: Iterable[int] | None = None) -> list[PlayerReview]:
    """Per player (all by default): each decision with the optimal choice and the loss."""
    wanted = set(range(len(game.players)) if players is None else players)
    found: dict[int, list[Decision]] = {p: [] for p in sorted(wanted)}
    for decision in decisions(game):
        if decision.player in wanted:
            found[decision.player].append(decision)
    return [PlayerReview(p, game.players[p], tuple(found[p])) for p in found]


__all__ = ["Decision", "PlayerReview", "decisions", "review"]
