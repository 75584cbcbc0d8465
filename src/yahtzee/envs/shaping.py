"""Optional potential-based reward shaping (Ng, Harada and Russell, 1999).

The potential of a seat is the optimal solver's expected points still to come: at the
seat's decision, the value of its best option less its total; between its turns, the
expected points still to come from the start of its next turn; 0 once its card is full.
Each change of a seat's potential is added to that seat's reward as it happens, so the
shaped return is the final total less the first potential, the optimal policy is
unchanged, and an optimal action's shaped reward is zero on average.
"""

from __future__ import annotations

from ..core import Game, Phase, RuleSet


class Shaping:
    def __init__(self, rules: RuleSet) -> None:
        from ..solver import cached_solver  # noqa: PLC0415 - numba loads only here

        self.solver = cached_solver(rules)
        self.potentials: list[float] = []

    def reset(self, game: Game) -> None:
        self.potentials = [self.solver.future(card) for card in game.cards]
        turn = game.turn
        if turn is not None and turn.dice is not None:
            self.update(game, turn.player)

    def update(self, game: Game, seat: int) -> float:
        """The change of ``seat``'s potential since its last update (now stored)."""
        card = game.cards[seat]
        situation = game.situation()
        if card.is_complete:
            potential = 0.0
        elif game.phase is Phase.TURN and situation is not None and game.current_player == seat:
            best = max(option.value for option in self.solver.options(situation))
            potential = best - card.total
        else:
            potential = self.solver.future(card)
        change = potential - self.potentials[seat]
        self.potentials[seat] = potential
        return change
