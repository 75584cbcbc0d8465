"""The advisor's review of a played game: every decision, the optimal choice, the loss."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core import (
    Action,
    Game,
    GameStarted,
    Rolled,
    Score,
    Scorecard,
    Scored,
    Situation,
    Undone,
    Written,
)
from ..core import state as machine
from .advice import ACTIONS, TIE, Advice, action_text
from .planner import TurnPlanner
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
    win_swing: float | None = None
    """In a game against others: the chance to finish first this decision gave up
    against the best choice for winning (0 for it; ``None`` when not known)."""

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


def decisions(game: Game, players: Iterable[int] | None = None) -> Iterable[Decision]:
    """Every decision in the game's log (of ``players`` only, when given), valued by the
    optimal solver. A placement that was taken back (an ``Undone`` event) is not a
    decision: the one made instead is."""
    opening = game.event_log[0]
    assert isinstance(opening, GameStarted)
    wanted = None if players is None else frozenset(players)
    planner = cached_solver(game.rules)
    swings = _win_swings(game)
    state = machine.start(opening)
    found: list[Decision] = []
    placed: list[bool] = []  # per placement: whether it was a decision (a written score is not)
    for event in game.event_log[1:]:
        turn = state.turn
        if isinstance(event, Undone):
            if placed.pop():
                found.pop()  # the placement just before it
        elif isinstance(event, Written):
            placed.append(False)  # points written without dice: nothing to weigh
        elif turn is not None and turn.dice is not None and isinstance(event, Rolled | Scored):
            weighed = wanted is None or turn.player in wanted
            if isinstance(event, Scored):  # (another player's placement: not weighed)
                placed.append(weighed)
            if weighed:
                found.append(_decision(planner, swings, state, event))
        state = machine.apply(state, event)
    return found


def _decision(
    planner: TurnPlanner,
    swings: Callable[[Situation, list[Scorecard], Action], float] | None,
    state: machine.GameState,
    event: Rolled | Scored,
) -> Decision:
    """The decision ``event`` made in ``state``: its value and the best option's, from one
    listing of the options."""
    turn = state.turn
    assert turn is not None and turn.dice is not None
    situation = Situation(turn.dice, turn.rolls_left, state.cards[turn.player])
    action: Action = event.keep if isinstance(event, Rolled) else Score(event.category)
    options = planner.options(situation)
    best = Advice.from_options(situation, planner.rules, options).best
    value = next((o.value for o in options if o.action == action), None)
    if value is None:  # keeping all five dice: not listed, as good as standing on them
        value = planner.action_value(situation, action)
    rivals = [c for p, c in enumerate(state.cards) if p != turn.player]
    return Decision(
        turn.player, turn.round, situation, action, value, best.action, best.value,
        swings(situation, rivals, action) if swings and rivals else None,
    )  # fmt: skip


def has_win_swings(game: Game) -> bool:
    """Whether a review of ``game`` now has its win column: a game against others, once
    the tables that tell are loaded (a review made before they were is made again)."""
    from .curve_table import table_loaded  # noqa: PLC0415

    return len(game.players) > 1 and all(
        table_loaded(kind, game.rules) for kind in ("distribution", "target")
    )


def _win_swings(game: Game) -> Callable[[Situation, list[Scorecard], Action], float] | None:
    """How a decision's chance to win compares with the best for winning, when the tables
    that tell are loaded (a review never waits for them)."""
    from .winning import WinningStrategy  # noqa: PLC0415

    if not has_win_swings(game):
        return None
    winning = WinningStrategy(game.rules)

    def swing(situation: Situation, rivals: list[Scorecard], action: Action) -> float:
        codes, values = winning.options(situation, rivals)
        by_action = {ACTIONS[c]: v for c, v in zip(codes, values, strict=True)}
        mine = by_action.get(action)
        if mine is None:  # keeping all five dice: as good as standing on them
            mine = max(v for a, v in by_action.items() if isinstance(a, Score))
        return max(0.0, max(values) - mine)

    return swing


def review(game: Game, players: Iterable[int] | None = None) -> list[PlayerReview]:
    """Per player (all by default): each decision with the optimal choice and the loss."""
    wanted = set(range(len(game.players)) if players is None else players)
    found: dict[int, list[Decision]] = {p: [] for p in sorted(wanted)}
    for decision in decisions(game, wanted):
        found[decision.player].append(decision)
    return [PlayerReview(p, game.players[p], tuple(found[p])) for p in found]


__all__ = ["Decision", "PlayerReview", "decisions", "has_win_swings", "review"]
