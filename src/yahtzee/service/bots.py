"""The bots of a game session, its part (`GameSession` is one): each bot seat's strategy,
made on first use (or at once where that is quick), and the move it chooses; the stand-in
move for a human whose turn timer ran out."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core import DEFAULT_LEVEL, Action, BotSpec, IllegalMove, Keep

if TYPE_CHECKING:
    from ..core import Game, RuleSet
    from ..solver import Progress, Solver, Strategy
    from ..store import Seat


STAND_IN = BotSpec.at_level(DEFAULT_LEVEL)
"""Who plays for a human whose turn timer ran out."""


class SessionBots:
    """The bots' methods of `GameSession`, on its game and seats."""

    game: Game
    seats: list[Seat]
    seed: int | str | None
    _bots: dict[int, Strategy]
    _stand_ins: dict[int, Strategy]
    bot_methods: dict[int, dict[str, int]]

    if TYPE_CHECKING:

        @property
        def rules(self) -> RuleSet: ...

        @property
        def current(self) -> int | None: ...

        def is_bot(self, seat: int | None) -> bool: ...

        def solver(self, progress: Progress | None = None) -> Solver: ...

    def bot_action(self, seat: int | None = None) -> Action:
        """What the bot at ``seat`` (the player to act by default) does now."""
        player = self.current if seat is None else seat
        if player is None or not self.is_bot(player):
            raise IllegalMove("It is not a computer player's turn.", code="not_a_bot")
        spec = self.seats[player].bot
        assert spec is not None
        if player not in self._bots:
            self._bots[player] = self._strategy(spec, player)
        return self._choose(self._bots[player])

    def bot_decides_quickly(self, seat: int) -> bool:
        """Whether the bot at ``seat`` decides in microseconds (`bot_action` may then run
        on an event loop): its strategy does, or is one made at once (then it is made
        now: a new game's first bot move needs no worker thread either)."""
        spec = self.seats[seat].bot if 0 <= seat < len(self.seats) else None
        return spec is not None and self._quick(self._bots, seat, spec)

    def stand_in(self, seat: int) -> Action:
        """The move made for a human whose turn timer ran out: a level-3 bot's choice (its
        strategy made on first use: a worker thread's job unless
        `stand_in_decides_quickly`)."""
        strategy = self._stand_ins.get(seat)
        if strategy is None:
            strategy = self._stand_ins[seat] = self._strategy(STAND_IN, seat)
        return self._choose(strategy)

    def stand_in_decides_quickly(self, seat: int) -> bool:
        """Whether the stand-in at ``seat`` decides in microseconds (`stand_in` may then
        run on an event loop), as `bot_decides_quickly` says for a bot."""
        return self._quick(self._stand_ins, seat, STAND_IN)

    def _quick(self, made: dict[int, Strategy], seat: int, spec: BotSpec) -> bool:
        """Whether the strategy ``made`` holds for ``seat`` (or one made now, if that is
        quick) decides quickly."""
        from ..solver import solver_loaded  # noqa: PLC0415
        from ..solver.strategies import decides_quickly, made_at_once  # noqa: PLC0415

        strategy = made.get(seat)
        if strategy is None:
            if not solver_loaded(self.rules) or not made_at_once(spec, self.rules):
                return False
            strategy = made[seat] = self._strategy(spec, seat)
        return decides_quickly(strategy)

    def _choose(self, strategy: Strategy) -> Action:
        from ..solver.strategies import rival_aware  # noqa: PLC0415

        situation = self.game.situation()
        if situation is None:
            return Keep.NONE
        if rival_aware(strategy):
            me = self.current
            rivals = [card for seat, card in enumerate(self.game.cards) if seat != me]
            action = strategy.choose_against(situation, rivals)
            method = getattr(strategy, "method", None)
            if isinstance(method, str) and me is not None and rivals:
                counts = self.bot_methods.setdefault(me, {})
                counts[method] = counts.get(method, 0) + 1
            return action
        return strategy.choose(situation)

    def _strategy(self, spec: BotSpec, seat: int) -> Strategy:
        from ..solver import strategy  # noqa: PLC0415 - numba loads with the first bot

        self.solver()
        rng = random.Random(f"{self.seed}/{seat}") if self.seed is not None else None
        return strategy(spec, self.rules, rng)
