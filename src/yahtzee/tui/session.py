"""A game being played in the terminal: the engine, its records and its bots.

No widget holds game state: screens ask the session and tell it what the player did.
Every action is saved to the records as it happens, so a killed terminal loses nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import Action, Category, Dice, Game, Keep, Placement, RandomDice, RuleSet
from ..store import Seat, Store


@dataclass
class SeatPlan:
    """A seat on the new-game screen: a human by name, or a bot of a difficulty level."""

    name: str
    level: int | None = None  # 1-5 for a bot

    def seat(self) -> Seat:
        return Seat(self.name, f"level{self.level}" if self.level else None)


@dataclass
class Session:
    game: Game
    store: Store | None
    game_id: str | None
    seats: list[Seat]
    hints_allowed: bool = True
    hints_used: bool = False
    _bots: dict[int, Any] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        plans: Sequence[SeatPlan],
        rules: RuleSet,
        store: Store | None,
        *,
        seed: int | None = None,
        hints: bool = True,
    ) -> Session:
        seats = [plan.seat() for plan in plans]
        game = Game([s.name for s in seats], rules, RandomDice(seed))
        game_id = store.start(game, seats, seed=seed) if store else None
        return cls(game, store, game_id, seats, hints)

    @classmethod
    def resume(cls, store: Store, game_id: str, seed: int | None = None) -> Session:
        summary = store.summary(game_id)
        game = store.load(game_id, RandomDice(seed))
        session = cls(game, store, game_id, store.seats_of(game_id))
        session.hints_used = summary.hints_used
        return session

    # Reading -------------------------------------------------------------------------

    @property
    def current(self) -> int | None:
        return self.game.current_player

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and self.seats[seat].bot is not None

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot is None]

    def placements(self) -> dict[Category, Placement]:
        return {p.category: p for p in self.game.placements()}

    # Acting --------------------------------------------------------------------------

    def roll(self, keep: Keep = Keep.NONE) -> Dice:
        dice = self.game.roll(keep)
        self.save()
        return dice

    def score(self, category: Category) -> Placement:
        placement = self.game.score(category)
        self.save()
        if self.game.is_over:
            self.record_review()
        return placement

    def play(self, action: Action) -> None:
        if isinstance(action, Keep):
            self.roll(action)
        else:
            self.score(action.category)

    def _solver(self) -> Any:
        """The solver, loaded (or built) without drawing over the full-screen game."""
        from ..solver.solver import cached_solver  # noqa: PLC0415 - numba loads only here

        return cached_solver(self.game.rules, progress=False)

    def bot_action(self) -> Action:
        """The next action of the bot whose turn it is."""
        seat = self.current
        assert seat is not None and self.is_bot(seat)
        situation = self.game.situation()
        if situation is None:
            return Keep.NONE
        if seat not in self._bots:
            self._solver()
            from ..solver import strategy  # noqa: PLC0415 - numba loads only with bots

            self._bots[seat] = strategy(self.seats[seat].bot or "optimal", self.game.rules, seat)
        action: Action = self._bots[seat].choose(situation)
        return action

    def hint(self) -> Any:
        """The advisor's ranked options for the current decision (marks hints as used)."""
        situation = self.game.situation()
        if situation is None or not self.hints_allowed:
            return None
        solver = self._solver()
        if not self.hints_used:
            self.hints_used = True
            if self.store is not None and self.game_id is not None:
                self.store.mark_hints_used(self.game_id)
        return solver.advise(situation)

    def save(self) -> None:
        if self.store is not None and self.game_id is not None:
            self.store.save(self.game_id, self.game)

    def review(self) -> Any:
        from ..solver.review import review  # noqa: PLC0415

        self._solver()
        return review(self.game, self.humans)

    def record_review(self) -> None:
        """Keep each human's advisor loss with the finished game, for the statistics."""
        if self.store is None or self.game_id is None or not self.humans:
            return
        for player in self.review():
            self.store.set_review(
                self.game_id, player.player, len(player.decisions), player.total_loss
            )
